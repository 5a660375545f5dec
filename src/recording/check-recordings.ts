// Checks recorded exchanges against the contract, streaming each file: each exchange is matched to its
// operation, its credentials registered as secrets, its observations tallied. Exchanges of no known
// operation are counted and listed, never failed.

import { matchOperation, pathOf } from '../contract/match-operation.ts';
import { redactText } from '../http/redact.ts';
import type { LatencySample } from '../protocol/latency-samples.ts';
import type { RecordingSection } from '../runner/report/model.ts';
import { checkExchange } from './check-exchange.ts';
import { formatOf, readRecording } from './read-recording.ts';
import { locationOf } from './recorded-exchange.ts';
import { registerRecordedSecrets } from './register-secrets.ts';
import { Tally } from './tally.ts';

/** Distinct unknown routes listed (the rest are counted). */
const MAX_UNKNOWN_ROUTES = 50;

export interface RecordingCheck {
  tally: Tally;
  recording: RecordingSection;
  /** The recorded answer times (HAR `time`, NDJSON `durationMs`) of the matched exchanges. */
  latency: LatencySample[];
}

export async function checkRecordings(files: readonly string[]): Promise<RecordingCheck> {
  const started = performance.now();
  const tally = new Tally();
  const unknown = new Map<string, { count: number; first: string }>();
  const latency: LatencySample[] = [];
  const recording: RecordingSection = {
    sources: [],
    exchanges: 0,
    matched: 0,
    unknown: 0,
    unknownRoutes: [],
    exchangesPerSecond: 0,
  };
  for (const file of files) {
    const source = { file, format: await formatOf(file), exchanges: 0 };
    recording.sources.push(source);
    for await (const exchange of readRecording(file)) {
      source.exchanges += 1;
      recording.exchanges += 1;
      registerRecordedSecrets(exchange);
      const op = matchOperation(exchange.method, exchange.url);
      const where = `${locationOf(exchange)} ${exchange.status} ${exchange.method} ${pathOf(exchange.url)}`;
      if (!op) {
        recording.unknown += 1;
        const route = `${exchange.method} ${pathOf(exchange.url)}`;
        const seen = unknown.get(route);
        if (seen) seen.count += 1;
        else if (unknown.size < MAX_UNKNOWN_ROUTES)
          unknown.set(route, { count: 1, first: locationOf(exchange) });
        continue;
      }
      recording.matched += 1;
      if (exchange.durationMs !== undefined) latency.push([op.operationId, exchange.durationMs]);
      tally.add(op.operationId, where, checkExchange(op, exchange));
    }
  }
  recording.unknownRoutes = [...unknown].map(([route, { count, first }]) =>
    redactText(`unknown operation: ${route} (${count} exchange(s); first ${first})`),
  );
  const seconds = (performance.now() - started) / 1000;
  recording.exchangesPerSecond =
    seconds > 0 ? Math.round(recording.exchanges / seconds) : recording.exchanges;
  return { tally, recording, latency };
}
