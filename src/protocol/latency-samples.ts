// How a test's answer times travel from the worker to the reporter: one annotation per test,
// `{ type: 'latency', description: '[["listCycles",12.3],…]' }`, added by the exchanges fixture at test end
// (src/worker/suite/fixtures.ts). Each exchange is mapped to its operation of specs/openapi.yaml by the recording
// matcher; exchanges of no operation (OAuth, sandbox administration) and untimed ones are left out.

import { matchOperation } from '../contract/match-operation.ts';
import type { Exchange } from '../http/exchange.ts';

/** One timed answer: the operation it belongs to and the round trip in milliseconds. */
export type LatencySample = readonly [operationId: string, ms: number];

export const LATENCY_ANNOTATION = 'latency';

/** The timed exchanges of a test, as samples. */
export function samplesOf(exchanges: readonly Exchange[]): LatencySample[] {
  return exchanges.flatMap((exchange) => {
    const operation = matchOperation(exchange.request.method, exchange.request.url);
    const ms = exchange.timing?.durationMs;
    return operation && ms !== undefined ? [[operation.operationId, Math.round(ms * 10) / 10] as const] : [];
  });
}

/** The annotation that carries a test's samples, or undefined when it has none. */
export function latencyAnnotation(
  exchanges: readonly Exchange[],
): { type: string; description: string } | undefined {
  const samples = samplesOf(exchanges);
  return samples.length > 0 ? { type: LATENCY_ANNOTATION, description: JSON.stringify(samples) } : undefined;
}

const isSample = (value: unknown): value is LatencySample =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'number';

/** The samples of a test's annotations (each latency annotation once; malformed ones ignored). */
export function samplesFromAnnotations(
  annotations: readonly { type: string; description?: string }[],
): LatencySample[] {
  const descriptions = new Set(
    annotations.filter((a) => a.type === LATENCY_ANNOTATION).map((a) => a.description ?? ''),
  );
  return [...descriptions].flatMap((description) => {
    try {
      const parsed: unknown = JSON.parse(description);
      return Array.isArray(parsed) ? parsed.filter(isSample) : [];
    } catch {
      return [];
    }
  });
}
