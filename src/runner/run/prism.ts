// Starts Prism (mock of the bundled spec, or validating proxy in front of a real target) on a free port.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { writeBundledOpenApi } from '../../contract/bundle.ts';

export interface RunningPrism {
  baseUrl: string;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

/**
 * How long Prism may take to listen: a safety net against a hang, never a measure of speed (on the 2-core
 * machine, loaded by the self tests beside it, Prism took more than 30 s to start).
 */
const START_BOUND_S = 120;

async function waitUntilListening(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_BOUND_S * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited (${child.exitCode}):\n${log()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`Prism did not start within ${START_BOUND_S} s:\n${log()}`);
}

/** `mode` mock: Prism answers from the spec; proxy: it forwards to `upstream` and validates both ways. */
export async function startPrism(mode: 'mock' | 'proxy', upstream?: string): Promise<RunningPrism> {
  const spec = await writeBundledOpenApi();
  const port = await freePort();
  const args =
    mode === 'mock'
      ? ['mock', spec, '--dynamic', '--seed', 'conformance']
      : ['proxy', spec, upstream ?? '', '--errors=false'];
  const child = spawn(process.execPath, [prismBin(), ...args, '-p', String(port), '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilListening(baseUrl, child, () => output);
  return {
    baseUrl,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
