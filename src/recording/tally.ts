// Collects the findings of many exchanges into one result per (requirement, operation), with bounded
// memory: counts, plus the first few locations of each distinct finding. Turned into report entries
// (TestResultSummary) only at the end, when every secret of the recording is known, so they are redacted.
import { redactText } from '../http/redact.ts';
import { type Finding, type FindingOutcome, stopReason } from '../protocol/finding.ts';
import type { TestResultSummary } from '../runner/report/model.ts';
import type { ExchangeFinding, ExchangeOutcome } from './check-exchange.ts';

/** Distinct findings kept per group and kind; the rest are counted. */
const MAX_DISTINCT = 20;
/** Locations kept per finding. */
const MAX_LOCATIONS = 3;

/** A distinct finding: how many exchanges showed it, and where the first few are. */
interface Seen {
  count: number;
  locations: string[];
}

interface Group {
  requirement: string;
  operation: string;
  checked: number;
  firstChecked?: string;
  seen: Record<Exclude<ExchangeOutcome, 'pass'>, Map<string, Seen>>;
  dropped: number;
}

export class Tally {
  private readonly groups = new Map<string, Group>();

  /** Records the `findings` of one exchange at `location` (e.g. `GET /v2/cycle → 200 at file.har#12`). */
  add(operation: string, location: string, findings: readonly ExchangeFinding[]): void {
    for (const { requirement, outcome, message } of findings) {
      const group = this.group(requirement, operation);
      if (outcome === 'pass') {
        group.checked += 1;
        group.firstChecked ??= location;
        continue;
      }
      const seen = group.seen[outcome];
      const earlier = seen.get(message);
      if (earlier) {
        earlier.count += 1;
        if (earlier.locations.length < MAX_LOCATIONS) earlier.locations.push(location);
      } else if (seen.size < MAX_DISTINCT) seen.set(message, { count: 1, locations: [location] });
      else group.dropped += 1;
    }
  }

  private group(requirement: string, operation: string): Group {
    const key = `${requirement}|${operation}`;
    let group = this.groups.get(key);
    if (!group) {
      group = {
        requirement,
        operation,
        checked: 0,
        seen: { fail: new Map(), 'not-verified': new Map(), warning: new Map(), note: new Map() },
        dropped: 0,
      };
      this.groups.set(key, group);
    }
    return group;
  }

  /** One report entry per (requirement, operation), redacted. */
  summaries(): TestResultSummary[] {
    return [...this.groups.values()]
      .sort((a, b) => a.operation.localeCompare(b.operation) || a.requirement.localeCompare(b.requirement))
      .map(summaryOf);
  }
}

const lines = (seen: Map<string, Seen>): string[] =>
  [...seen].map(
    ([text, { count, locations }]) =>
      `${text} (${count} exchange(s); ${locations.join(', ')}${count > locations.length ? ', …' : ''})`,
  );

function summaryOf(group: Group): TestResultSummary {
  const { requirement: id, operation, checked, seen } = group;
  const failed = seen.fail.size > 0;
  const unverifiedOnly = !failed && checked === 0 && seen['not-verified'].size > 0;
  const errors = lines(seen.fail);
  if (group.dropped > 0) errors.push(`… and ${group.dropped} more finding(s) not listed`);
  const findingsOf = (outcome: FindingOutcome, messages: string[]): Finding[] =>
    messages.map((message) => ({ requirement: id, outcome, message: redactText(message) }));
  const stop = unverifiedOnly
    ? findingsOf('not-verified', [lines(seen['not-verified']).join('; ')])[0]
    : undefined;
  const findings = [
    ...findingsOf(
      'pass',
      checked > 0
        ? [`${checked} recorded exchange(s) of ${operation} checked (first: ${group.firstChecked})`]
        : [],
    ).map((finding) => ({ ...finding, count: checked })),
    ...findingsOf('fail', errors),
    ...findingsOf('warning', lines(seen.warning)),
    ...(stop ? [stop] : findingsOf('not-verified', lines(seen['not-verified']))),
    ...findingsOf('note', lines(seen.note)),
  ];
  return {
    title: `${operation}: ${id} in recorded exchanges`,
    file: 'recording',
    status: failed ? 'failed' : unverifiedOnly ? 'skipped' : 'passed',
    outcome: failed ? 'fail' : unverifiedOnly ? 'not-verified' : 'pass',
    requirements: [id],
    failedRequirements: failed ? [id] : [],
    tags: ['@recording'],
    skipReason: stop && stopReason(stop),
    findings,
    prismViolations: [],
    error: failed
      ? redactText(`[${id}] ${operation}:\n${errors.map((e) => `  - ${e}`).join('\n')}`)
      : undefined,
  };
}
