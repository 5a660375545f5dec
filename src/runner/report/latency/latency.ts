// Latency as a result: per operation, the count, p50, p95 and max of the target's answer times, from the
// exchanges a run recorded (src/protocol/latency-samples.ts). Percentiles are nearest-rank: the value at
// rank ceil(p/100 × n) of the sorted times, so every figure is a time the target really took.
import type { LatencySample } from '../../../protocol/latency-samples.ts';

export interface LatencyRow {
  operationId: string;
  count: number;
  p50: number;
  p95: number;
  max: number;
  /** CONFORMANCE_LATENCY_BUDGET: the p95 the team allows for this operation. */
  budgetMs?: number;
  /** CONFORMANCE_BASELINE: the baseline run's p95 for this operation. */
  baseline?: { p95: number };
}

/** The nearest-rank percentile of ascending `sorted` (undefined when empty). */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The latency table, one row per operation, ordered by operationId. */
export function latencyTable(samples: Iterable<LatencySample>): LatencyRow[] {
  const byOperation = new Map<string, number[]>();
  for (const [operationId, ms] of samples) {
    if (!Number.isFinite(ms) || ms < 0) continue;
    const list = byOperation.get(operationId);
    if (list) list.push(ms);
    else byOperation.set(operationId, [ms]);
  }
  return [...byOperation]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operationId, times]) => {
      const sorted = times.sort((a, b) => a - b);
      return {
        operationId,
        count: sorted.length,
        p50: round(percentile(sorted, 50) ?? 0),
        p95: round(percentile(sorted, 95) ?? 0),
        max: round(sorted.at(-1) ?? 0),
      };
    });
}

/** The target's answer times over every operation, in words ("took 700 ms at the median, 712 ms at p95 (1640 answers)"). */
export function answerTimesInWords(samples: readonly LatencySample[]): string {
  const sorted = samples.map(([, ms]) => ms).sort((a, b) => a - b);
  if (sorted.length === 0) return 'no answer of the target was timed';
  const at = (p: number) => Math.round(percentile(sorted, p) ?? 0);
  return `the target's answers took ${at(50)} ms at the median, ${at(95)} ms at p95 (${sorted.length} answers)`;
}
