/**
 * Self-tests of the OpenAPI bundler (`src/contract/bundle.ts`, the `npm run bundle` command) and of
 * Prism 5 serving and validating the bundled document.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  bundleOpenApi,
  externalRefs,
  type JsonValue,
  schemaIdentifierKeys,
  writeBundledOpenApi,
} from '../../src/contract/bundle.ts';
import { operationById } from '../../src/contract/operations.ts';
import { buildUrl } from '../../src/contract/request-paths.ts';
import { freePort } from '../../src/runner/run/prism.ts';
import { binOf, cleanEnv, get, repoRoot, runNode } from './contract-openapi-support.ts';
import { START_WAIT_MS } from './safety-nets.ts';

function waitForOutput(child: ChildProcess, marker: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${marker}; output:\n${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (marker.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before ${marker}; output:\n${seen}`));
    });
  });
}

/** Starts Prism 5 (`prism <args> -p <free port> -h 127.0.0.1`) and waits until it listens. */
async function startPrism(args: readonly string[]): Promise<{ base: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [binOf('@stoplight/prism-cli', 'dist/index.js'), ...args, '-p', String(port), '-h', '127.0.0.1'],
    { cwd: repoRoot, env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    await waitForOutput(child, /Prism is listening/, START_WAIT_MS);
  } catch (error) {
    stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, stop };
}

/** A cycle record without its timezone_offset (filled in by the tests). */
const cycleRecord = {
  id: 93846,
  user_id: 10129,
  created_at: '2025-10-14T03:41:02.000Z',
  updated_at: '2025-10-14T03:41:02.000Z',
  start: '2025-10-14T03:40:00.000Z',
  score_state: 'PENDING_SCORE',
};

test.describe('src/contract/bundle.ts', () => {
  test('npm run bundle writes a bundle without $id, nested $schema or external $ref', async () => {
    const testInfo = test.info();
    const output = testInfo.outputPath('openapi.bundled.json');
    const { code, stdout, stderr } = await runNode([
      binOf('tsx', 'dist/cli.mjs'),
      join(repoRoot, 'src', 'dev', 'bundle-openapi.ts'),
      output,
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(output);
    const bundled = JSON.parse(readFileSync(output, 'utf8')) as JsonValue & Record<string, unknown>;
    expect(schemaIdentifierKeys(bundled)).toEqual([]);
    expect(externalRefs(bundled)).toEqual([]);
    expect(bundled.openapi).toBe('3.1.0');
    // Every internal reference resolves inside the bundle.
    const refs = JSON.stringify(bundled).match(/"\$ref":"#[^"]*"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1);
      const target = get(
        bundled,
        ...pointer.split('/').map((k) => decodeURIComponent(k).replaceAll('~1', '/').replaceAll('~0', '~')),
      );
      expect(target, ref).toBeDefined();
    }
    const schemas = get(bundled, 'components', 'schemas') as Record<string, unknown>;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['cycle', 'paginated-cycle-response', 'lab-requisition']),
    );
  });

  test('Prism 5 mocks the bundled document: 200 with a body for a collection, 400 for limit > 25', async () => {
    const testInfo = test.info();
    const file = await writeBundledOpenApi(testInfo.outputPath('openapi.bundled.json'));
    const prism = await startPrism(['mock', file]);
    try {
      const headers = { authorization: 'Bearer conformance-self-test' };
      const list = operationById('listCycles');
      const ok = await fetch(buildUrl(prism.base, list, {}, { limit: 2 }), { headers });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { records?: unknown[] };
      expect(Array.isArray(body.records)).toBe(true);
      expect(body.records?.length).toBeGreaterThan(0);
      // The parameter rules are effective: limit above the maximum is a client error (declared 400).
      const tooMany = await fetch(buildUrl(prism.base, list, {}, { limit: 26 }), { headers });
      expect(tooMany.status).toBe(400);
      expect(tooMany.headers.get('sl-violations') ?? '').toContain('limit');
      await tooMany.body?.cancel();
    } finally {
      prism.stop();
    }
  });

  test('Prism 5 proxy validates responses against the inlined schemas (violations are detected)', async () => {
    const testInfo = test.info();
    const valid = { ...cycleRecord, timezone_offset: '-05:00' };
    const invalid = { ...cycleRecord, timezone_offset: '5 hours' };
    const upstream = createHttpServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      const record = request.url?.includes('nextToken=invalid') ? invalid : valid;
      response.end(JSON.stringify({ records: [record] }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    const file = await writeBundledOpenApi(testInfo.outputPath('openapi.bundled.json'));
    const prism = await startPrism(['proxy', file, upstreamUrl, '--errors']);
    try {
      const headers = { authorization: 'Bearer conformance-self-test' };
      const list = operationById('listCycles');
      const ok = await fetch(buildUrl(prism.base, list, {}, { nextToken: 'valid' }), { headers });
      expect(ok.status, ok.headers.get('sl-violations') ?? '').toBe(200);
      await ok.body?.cancel();
      const bad = await fetch(buildUrl(prism.base, list, {}, { nextToken: 'invalid' }), { headers });
      expect(bad.status).toBe(500);
      expect(bad.headers.get('sl-violations') ?? '').toContain('timezone_offset');
      await bad.body?.cancel();
    } finally {
      prism.stop();
      upstream.close();
    }
  });

  test('bundleOpenApi() inlines every schema file referenced by the document', async () => {
    const bundled = await bundleOpenApi();
    expect(externalRefs(bundled)).toEqual([]);
    expect(schemaIdentifierKeys(bundled)).toEqual([]);
    expect(bundled.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});
