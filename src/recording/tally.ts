// Collects the observations of many exchanges into one result per (requirement, operation), with bounded
// memory: counts, plus the first few locations of each distinct finding. Turned into report entries
// (TestResultSummary) only at the end, when every secret of the recording is known, so they are redacted.
import { redactText } from '../http/redact.ts';
import type { TestResultSummary } from '../report/model.ts';
import type { Observation, ObservationKind } from './check-exchange.ts';

/** Distinct findings kept per group and kind; the rest are counted. */
const MAX_DISTINCT = 20;
/** Locations kept per finding. */
const MAX_LOCATIONS = 3;

interface Finding {
  count: number;
  locations: string[];
}

interface Group {
  requirement: string;
  operation: string;
  checked: number;
  firstChecked?: string;
  findings: Record<Exclude<ObservationKind, 'checked'>, Map<string, Finding>>;
  dropped: number;
}

export class Tally {
  private readonly groups = new Map<string, Group>();

  /** Records `observations` of one exchange at `location` (e.g. `GET /v2/cycle → 200 at file.har#12`). */
  add(operation: string, location: string, observations: readonly Observation[]): void {
    for (const { requirement, kind, text } of observations) {
      const group = this.group(requirement, operation);
      if (kind === 'checked') {
        group.checked += 1;
        group.firstChecked ??= location;
        continue;
      }
      const findings = group.findings[kind];
      const finding = findings.get(text);
      if (finding) {
        finding.count += 1;
        if (finding.locations.length < MAX_LOCATIONS) finding.locations.push(location);
      } else if (findings.size < MAX_DISTINCT) findings.set(text, { count: 1, locations: [location] });
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
        findings: { fail: new Map(), 'not-verified': new Map(), warning: new Map(), note: new Map() },
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

const lines = (findings: Map<string, Finding>): string[] =>
  [...findings].map(
    ([text, { count, locations }]) =>
      `${text} (${count} exchange(s); ${locations.join(', ')}${count > locations.length ? ', …' : ''})`,
  );

function summaryOf(group: Group): TestResultSummary {
  const { requirement: id, operation, checked, findings } = group;
  const failed = findings.fail.size > 0;
  const unverifiedOnly = !failed && checked === 0 && findings['not-verified'].size > 0;
  const prefixed = (list: string[]) => list.map((line) => redactText(`${id}: ${line}`));
  const errors = lines(findings.fail);
  if (group.dropped > 0) errors.push(`… and ${group.dropped} more finding(s) not listed`);
  return {
    title: `${operation}: ${id} in recorded exchanges`,
    file: 'recording',
    status: failed ? 'failed' : unverifiedOnly ? 'skipped' : 'passed',
    outcome: failed ? 'failed' : unverifiedOnly ? 'not-verified' : 'passed',
    requirements: [id],
    failedRequirements: failed ? [id] : [],
    tags: ['@recording'],
    skipReason: unverifiedOnly ? redactText(lines(findings['not-verified']).join('; ')) : undefined,
    evidence:
      checked > 0
        ? prefixed([`${checked} recorded exchange(s) of ${operation} checked (first: ${group.firstChecked})`])
        : [],
    warnings: prefixed(lines(findings.warning)),
    notVerified: unverifiedOnly ? [] : prefixed(lines(findings['not-verified'])),
    notes: prefixed(lines(findings.note)),
    prismViolations: [],
    error: failed
      ? redactText(`[${id}] ${operation}:\n${errors.map((e) => `  - ${e}`).join('\n')}`)
      : undefined,
  };
}
