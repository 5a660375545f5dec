// A ~50 MB HAR, written streamed, is checked by `npm run check-recording` in a child process whose V8 heap
// is capped below the file's size: it finishes, and its peak RSS grows over a tiny recording's by less
// than the file. Prints the throughput (exchanges/s) and the peak RSS.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { operationById } from '../../src/contract/operations.ts';
import { harEntry, harText, validBody, writeLargeHar } from '../../src/recording/synthetic-har.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

test.setTimeout(WHOLE_RUN_TIMEOUT_MS);

const MB = 1024 * 1024;
/** The child's V8 heap limit (MB): smaller than the recording, so only a streamed read can finish. */
const HEAP_LIMIT_MB = 48;

async function checkInChild(file: string) {
  const [command, args] = cli('check-recording', file);
  const { code, output } = await runProcess(
    command,
    args,
    { CONFORMANCE_REPORTS_DIR: scratchDir(), NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}` },
    true,
  );
  const [, exchanges, perSecond, rss] =
    /(\d+) recorded exchange\(s\).*?(\d+) exchanges\/s; peak RSS (\d+) MB/.exec(output) ?? [];
  return { code, output, exchanges: Number(exchanges), perSecond: Number(perSecond), peakRssMb: Number(rss) };
}

test('a 50 MB HAR is checked streamed: heap capped below the file size, RSS growth under it', async () => {
  const op = operationById('listCycles');
  const body = validBody(op);
  const big = join(scratchDir(), 'big.har');
  const count = 34_000;
  await writeLargeHar(big, count, (i) => harEntry(op, { body, time: i % 97 }));
  const sizeMb = statSync(big).size / MB;
  expect(sizeMb).toBeGreaterThan(45);
  const small = join(scratchDir(), 'small.har');
  writeFileSync(small, harText([harEntry(op, { body })]));

  const baseline = await checkInChild(small);
  const large = await checkInChild(big);
  expect(large.code, large.output).toBe(0);
  expect(large.exchanges).toBe(count);
  const growth = large.peakRssMb - baseline.peakRssMb;
  console.log(
    `big HAR: ${sizeMb.toFixed(1)} MB, ${large.exchanges} exchanges, ${large.perSecond} exchanges/s, ` +
      `peak RSS ${large.peakRssMb} MB (tiny HAR: ${baseline.peakRssMb} MB; growth ${growth} MB), heap limit ${HEAP_LIMIT_MB} MB`,
  );
  // The capped heap is the proof of streaming; RSS also holds code, buffers and GC slack, so the bound is looser.
  expect(growth).toBeLessThan(sizeMb);
});
