// The self tests' child runs of the suite's command run its JavaScript build, made here once per self-test
// run (src/dev/build-package.ts --into, beside the checkout's sources, which stay what the tests import), as
// the package's users run it: a child run then starts in about two thirds of the CPU the sources through tsx
// take (docs/proving-the-suite.md). SELF_TESTS_SUITE_BUILD set beforehand names the build to run instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/run-state/package.ts';
import { runProcess, tsx } from '../../src/runner/run/run-step.ts';

export default async function buildTheSuite(): Promise<(() => void) | undefined> {
  if (process.env.SELF_TESTS_SUITE_BUILD) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'self-tests-suite-'));
  const [node, args] = tsx(join(packageRoot, 'src/dev/build-package.ts'), '--into', dir);
  const { code, output } = await runProcess(node, args, {}, true);
  if (code !== 0) throw new Error(`the suite's build for the self tests failed (exit ${code}):\n${output}`);
  // Playwright's workers inherit what global setup sets.
  process.env.SELF_TESTS_SUITE_BUILD = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
