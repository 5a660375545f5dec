// Helpers of the OpenAPI self-tests: the repository root, a JSON walker and Node child processes with a
// quiet environment (no telemetry, no colours), which other self tests start their Node children with too.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

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

const execNode = promisify(execFile);

/** Node with `args` in the repository root, in the quiet environment plus `env`: its exit code and output. */
export async function runNode(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execNode(process.execPath, args, {
      cwd: repoRoot,
      env: { ...cleanEnv, ...env },
      maxBuffer: Number.POSITIVE_INFINITY,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    // A non-zero exit rejects, carrying the code and the output; anything else (no process) is thrown.
    const exited = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof exited.code !== 'number') throw error;
    return { code: exited.code, stdout: exited.stdout ?? '', stderr: exited.stderr ?? '' };
  }
}

export function binOf(pkg: string, bin: string): string {
  return join(dirname(requireFromHere.resolve(`${pkg}/package.json`)), bin);
}
