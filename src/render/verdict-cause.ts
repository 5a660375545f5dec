// Why a result's verdict is not PASS, in one sentence, from the result alone: what every form of the report
// (the GitHub summary, the page, the console) says first.
import type { ConformanceResult } from '../result/schema.ts';

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** "3 MUST requirements failed", "the run was cut short: …; 12 not verified", or undefined for a PASS. */
export function verdictCause(result: ConformanceResult): string | undefined {
  const failed = result.requirements.filter((r) => r.status === 'fail' && r.deviation === undefined);
  const notVerified = result.incomplete.length;
  const cutShort = result.runError ?? result.runSideStops?.[0];
  const besides = [
    ...(cutShort ? [`the run was cut short: ${cutShort.cause}`] : []),
    ...(result.selection.length > 0 ? [`the run was narrowed (${result.selection.join('; ')})`] : []),
    ...(notVerified > 0 ? [`${plural(notVerified, 'MUST requirement')} not verified`] : []),
  ];
  switch (result.verdict) {
    case 'pass':
      return undefined;
    case 'fail': {
      const first =
        failed.length > 0
          ? [`${plural(failed.length, 'requirement')} failed`]
          : result.gateFailures.slice(0, 1);
      return [...first, ...besides].join('; ');
    }
    default:
      return besides.join('; ') || result.gateFailures[0] || 'the run did not verify every MUST requirement';
  }
}
