// What a requirement's statuses over the last runs say: a regression (it passed, it fails now) is the
// target's; a flip between pass and not verified is the data or the configuration of a run, not the target.
import type { Status, TrendKind } from './view-model.ts';

/** Whether a status verified the requirement (a warning is a pass with a departure from a reading). */
const verified = (status: Status): boolean => status === 'pass' || status === 'warning';

/**
 * The kind of a requirement's trend, from its statuses oldest first (undefined: not in that run's history).
 * A run that did not run it (omitted: a narrowed run, another profile) says nothing of it.
 */
export function trendOf(statuses: readonly (Status | undefined)[]): TrendKind {
  if (statuses.length < 2) return 'new';
  const seen = statuses.filter((status): status is Status => status !== undefined && status !== 'omitted');
  const last = seen.at(-1);
  if (last === undefined || seen.every((status) => status === last)) return 'steady';
  const kinds = new Set(seen.map((status) => (verified(status) ? 'pass' : status)));
  if (kinds.size === 2 && kinds.has('pass') && kinds.has('not-verified')) return 'data';
  // How often it went from verified to failing: more than once is a flaky check or target, not one change.
  const breaks = seen.filter((status, i) => status === 'fail' && i > 0 && verified(seen[i - 1] as Status));
  if (breaks.length > 1) return 'flaky';
  const before = seen.at(-2) as Status;
  if (last === 'fail' && before !== 'fail') return seen.some(verified) ? 'regression' : 'changed';
  if (before === 'fail' && verified(last)) return 'fixed';
  return 'changed';
}
