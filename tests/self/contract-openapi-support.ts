// Helpers of the OpenAPI self-tests: the repository root, a JSON walker and Node child processes with a
// quiet environment (no telemetry, no colours).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const requireFromHere = createRequire(import.meta.url);
export const cleanEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

export function get(node: unknown, ...keys: string[]): unknown {
  let current = node;
  for (const key of keys) {
    current =
      current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

export function runNode(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: cleanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
export function binOf(pkg: string, bin: string): string {
  return join(dirname(requireFromHere.resolve(`${pkg}/package.json`)), bin);
}
