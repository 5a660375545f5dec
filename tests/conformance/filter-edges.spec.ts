// The start and end filters of the four collections at the edges of a record the run has read: each bound
// 1 ms before and after the record's start and its end (src/worker/user-data/filter-edges.ts), and on every page so
// read every record of the reference walk judged by where the bound lies in it. A server that rounds or
// truncates a bound serves a record it must leave out, leaves out one it must serve, or treats a record under
// way at two starts differently (FLT-START-DURING). Eight first pages per collection, one shared with
// FLT-DATE-TIME-FORMS; a bound exactly at an edge is left to the readings of filters.spec.ts.
import {
  type BoundParam,
  covered,
  type Departures,
  departures,
  describeEachCollection,
  duringDepartures,
  type EdgeProbe,
  edgeProbes,
  type RequirementId,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

/** A rule of a filter at the edges: the requirement, what the title says, how the probes are judged. */
interface EdgeRule {
  requirement: RequirementId;
  title: string;
  judge: (probes: readonly EdgeProbe[]) => Departures;
  /** What was judged, as the evidence counts it, and what is missing when nothing was. */
  judged: string;
  none: string;
}

const ofFilter =
  (param: BoundParam, want: 'in' | 'out') =>
  (probes: readonly EdgeProbe[]): Departures =>
    departures(
      probes.filter((probe) => probe.param === param),
      want,
    );

const RULES: readonly EdgeRule[] = [
  {
    requirement: 'FLT-START-INCLUSIVE',
    title: "with start 1 ms either side of a record's edges includes every record from start on",
    judge: ofFilter('start', 'in'),
    judged: 'records from start on found',
    none: 'no record lies after the start bounds tried',
  },
  {
    requirement: 'FLT-START-EXCLUDES-EARLIER',
    title: "with start 1 ms either side of a record's edges leaves out every record that ended before start",
    judge: ofFilter('start', 'out'),
    judged: 'records that ended before start left out',
    none: 'no record ended before the start bounds tried',
  },
  {
    requirement: 'FLT-START-DURING',
    title: 'with start 1 ms after a record begins and 1 ms before it ends treats that record alike',
    judge: duringDepartures,
    judged: 'records under way at two starts treated alike',
    none: 'no record is under way at two of the start bounds (it has not ended, or lasts under 2 ms)',
  },
  {
    requirement: 'FLT-END-EXCLUSIVE',
    title: "with end 1 ms either side of a record's edges leaves out every record starting after end",
    judge: ofFilter('end', 'out'),
    judged: 'records starting after end left out',
    none: 'no record starts after the end bounds tried',
  },
  {
    requirement: 'FLT-END-INCLUDES-EARLIER',
    title: "with end 1 ms either side of a record's edges includes every record begun before end",
    judge: ofFilter('end', 'in'),
    judged: 'records begun before end found',
    none: 'no record begins before the end bounds tried',
  },
];

describeEachCollection((op, name) => {
  for (const rule of RULES) {
    test(...verifies(rule.requirement, `${name} ${rule.title}`), async ({ dataset, verdict }) => {
      const probes = await edgeProbes(dataset, op, verdict.requirement);
      if (probes.length === 0) verdict.notVerified(`${name} holds no record to set a bound at`);
      const { problems, exchange, judged } = rule.judge(probes);
      verdict.expectNone(problems, exchange);
      if (judged === 0) verdict.notVerified(`${name}: ${rule.none} (${probes.length} bounds)`);
      covered(
        'filter boundary',
        probes.map(({ param, edge }) => `${param} = ${edge} of a record`),
        name,
      );
      verdict.evidence(`${name}: ${judged} ${rule.judged}, over ${probes.length} bounds`, { count: judged });
    });
  }
});
