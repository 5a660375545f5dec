// The overview a report opens with (conformance.md, Allure): requirement counts per area, and the
// latency rows' change against the baseline.
import { areaOf } from '../../contract/requirements.ts';
import type { LatencyRow } from './latency/latency.ts';
import type { RequirementResult } from './model.ts';

export interface AreaCounts {
  area: string;
  pass: number;
  fail: number;
  warning: number;
  notVerified: number;
}

/** Per area, in catalogue order: how many requirements passed, failed, warned, were not verified. */
export function areaCounts(requirements: readonly RequirementResult[]): AreaCounts[] {
  const areas = new Map<string, AreaCounts>();
  for (const requirement of requirements) {
    const area = areaOf(requirement);
    const counts = areas.get(area) ?? { area, pass: 0, fail: 0, warning: 0, notVerified: 0 };
    areas.set(area, counts);
    if (requirement.status === 'pass') counts.pass += 1;
    else if (requirement.status === 'fail') counts.fail += 1;
    else if (requirement.status === 'warning') counts.warning += 1;
    else if (requirement.status === 'not-verified') counts.notVerified += 1;
  }
  return [...areas.values()];
}

/** The p95 change against the baseline: `+12.5 ms (+25%)`, or '' without a baseline figure. */
export function p95Change(row: LatencyRow): string {
  if (!row.baseline) return '';
  const delta = Math.round((row.p95 - row.baseline.p95) * 10) / 10;
  const sign = delta > 0 ? '+' : '';
  const percent = row.baseline.p95 > 0 ? ` (${sign}${Math.round((delta / row.baseline.p95) * 100)}%)` : '';
  return `${sign}${delta} ms${percent}`;
}

/** `p95 > budget`: the mark of an operation over its budget. */
export const overBudget = (row: LatencyRow): boolean => row.budgetMs !== undefined && row.p95 > row.budgetMs;
