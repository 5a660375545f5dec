// What every form of the report says of the verdict first (the page, conformance.md, the job summary), from
// the result alone, each sentence literally true: why it is not PASS; on a FAIL, what the run would be
// without its failures; on a PASS, what it rests on and which MUST requirements it does not count.
import type { ConformanceResult } from '../../result/schema.ts';
import { causesOf } from './causes.ts';
import { isUncounted, UNCOUNTED } from './requirement-lines.ts';

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** The MUST requirements this data cannot show (a stated rule no client observes here): never counted. */
export const uncountedMust = (result: ConformanceResult): string[] =>
  result.requirements.filter(isUncounted).map((r) => r.id);

/** "1 cannot be observed with this data (not counted): ERR-404-BODY-PROFILE", or ''. */
function uncountedText(result: ConformanceResult): string {
  const ids = uncountedMust(result);
  return ids.length > 0 ? `${ids.length} ${UNCOUNTED}: ${ids.join(', ')}` : '';
}

/** "4 MUST requirements failed, from 2 causes" (the level named when every failed one has the same). */
function failedText(result: ConformanceResult): string | undefined {
  const failed = result.requirements.filter((r) => r.status === 'fail' && r.deviation === undefined);
  if (failed.length === 0) return result.gateFailures[0];
  const levels = [...new Set(failed.map((r) => r.level))];
  const causes = causesOf(result).filter((cause) => !cause.known).length;
  const from = causes > 0 ? `, from ${plural(causes, 'cause')}` : '';
  return `${plural(failed.length, `${levels.length === 1 ? `${levels[0]} ` : ''}requirement`)} failed${from}`;
}

/** Why an INCOMPLETE run is one, or what else a FAIL did not verify. */
function notVerifiedText(result: ConformanceResult): string[] {
  const notVerified = result.incomplete.length;
  return notVerified > 0 ? [`${plural(notVerified, 'MUST requirement')} of the profile not verified`] : [];
}

/** The run's own side: what cut it short, and what narrowed it. */
function runSideText(result: ConformanceResult): string[] {
  const cutShort = result.runError ?? result.runSideStops?.[0];
  return [
    ...(cutShort ? [`the run was cut short: ${cutShort.cause}`] : []),
    ...(result.stoppedSending ? [`the run stopped sending: ${result.stoppedSending}`] : []),
    ...(result.selection.length > 0 ? [`the run was narrowed: ${result.selection.join('; ')}`] : []),
  ];
}

/** Why the verdict is not PASS, in one sentence ("4 MUST requirements failed, from 2 causes; …"); undefined for a PASS. */
export function verdictCause(result: ConformanceResult): string | undefined {
  switch (result.verdict) {
    case 'pass':
      return undefined;
    case 'fail':
      return [
        failedText(result) ?? 'the gate failed',
        ...runSideText(result),
        ...notVerifiedText(result),
      ].join('; ');
    case 'error':
      return result.runError
        ? `the run could not judge the target (${result.runError.kind}): ${result.runError.cause}; ${result.runError.remedy}`
        : 'the run could not judge the target';
    default:
      return (
        [...runSideText(result), ...result.gateFailures, ...notVerifiedText(result)].join('; ') ||
        'the run did not verify every MUST requirement'
      );
  }
}

/** What a PASS rests on: "every verifiable MUST requirement of the profile passed; 1 cannot be observed…". */
export function passText(result: ConformanceResult): string {
  const uncounted = uncountedText(result);
  return uncounted
    ? `every verifiable MUST requirement of the profile passed; ${uncounted}`
    : 'every MUST requirement of the profile passed';
}

/** On a FAIL, what the run would be without its failures, and why: "no other problem: … would be PASS". */
export function besideFailuresText(result: ConformanceResult): string | undefined {
  const beside = result.verdict === 'fail' ? result.verdictBesideFailures : undefined;
  switch (beside) {
    case 'pass': {
      const uncounted = uncountedText(result);
      return `no other problem: without these failures the run would be PASS${uncounted ? `; ${uncounted}` : ''}`;
    }
    case 'incomplete':
    case 'error': {
      const why = [...runSideText(result), ...notVerifiedText(result)].join('; ');
      return `without these failures the run would still be ${beside.toUpperCase()}${why ? `: ${why}` : ''}`;
    }
    default:
      return undefined;
  }
}
