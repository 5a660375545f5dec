// A result's verdict, requirement statuses and completeness computed again from its tests and their findings,
// by the same build as the run's (src/runner/report/build-report.ts): a result edited (a FAIL made a PASS) where its
// tests' findings stayed says what its own findings do not, whatever its digest. `verify-report` refuses it.
import { requirements as catalogue } from '../../contract/requirements.ts';
import { buildReport, INTERRUPTED, type RunMeta } from './build-report.ts';
import type { Expectation } from './expectations.ts';
import type { ConformanceReport } from './model.ts';

/** The known failures a result states (in force, and expired), as the expectations they were. */
const expectationsOf = (report: ConformanceReport): Expectation[] => [
  ...new Map(
    [...report.deviations, ...(report.expiredDeviations ?? [])].map(
      ({ key, reason, owner, ticket, expires }) => [
        key,
        { key, outcome: 'fail' as const, reason, owner, ticket, expires },
      ],
    ),
  ).values(),
];

const metaOf = (report: ConformanceReport): RunMeta => ({
  target: report.target,
  baseUrl: report.baseUrl,
  profile: report.profile,
  environment: report.environment,
  strict: report.strict,
  startedAt: report.startedAt,
  durationMs: report.durationMs,
  requestsSent: report.requestsSent,
  stoppedSending: report.stoppedSending,
  propertySeed: report.propertySeed,
  runError: report.runError,
  selection: report.selection,
  shards: report.shards,
  interrupted: report.gateFailures.includes(INTERRUPTED),
});

/** What the result states that its tests' findings do not give, one line each (empty: nothing). */
export function disagreements(report: ConformanceReport): string[] {
  const rebuilt = buildReport(report.tests, catalogue, expectationsOf(report), metaOf(report));
  // A known failure that stopped happening is a gate failure the result states and its tests cannot show.
  const stated = report.gateFailures.some((line) => !rebuilt.gateFailures.includes(line));
  const verdict = stated ? 'fail' : rebuilt.verdict;
  const statuses = new Map(report.requirements.map((r) => [r.id, r.status]));
  const changed = rebuilt.requirements
    .filter((r) => statuses.get(r.id) !== r.status)
    .map((r) => `${r.id} ${statuses.get(r.id) ?? 'absent'} (its tests give ${r.status})`);
  const incomplete = (of: Pick<ConformanceReport, 'incomplete'>) =>
    of.incomplete.map(({ id }) => id).join(', ');
  return [
    ...(verdict === report.verdict
      ? []
      : [`verdict ${report.verdict.toUpperCase()}, where its tests' findings give ${verdict.toUpperCase()}`]),
    ...(changed.length > 0
      ? [`requirement statuses its tests' findings do not give: ${changed.join('; ')}`]
      : []),
    ...(incomplete(report) === incomplete(rebuilt)
      ? []
      : [
          `MUST requirements not verified: [${incomplete(report)}], where its tests give [${incomplete(rebuilt)}]`,
        ]),
  ];
}
