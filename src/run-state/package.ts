// The suite as a package: its root (specs, schemas, tests, configuration travel with it), its version, and
// where its modules are: the TypeScript sources in a checkout (run through tsx), or their JavaScript build
// (BUILT_DIR, which `npm pack` makes; the installed command and Playwright's workers load it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the package that holds the build, laid out as the checkout (dist/src/cli/main.js). */
export const BUILT_DIR = 'dist';

/** Whether this process runs the build (this module is then package.js). */
export const runsBuilt = !import.meta.url.endsWith('.ts');

/** Where the suite's modules are: the checkout's root, or the build's. */
export const codeRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The package's root: its package.json, specs, schemas and the sandbox's env file. */
export const packageRoot = runsBuilt ? fileURLToPath(new URL('../../../', import.meta.url)) : codeRoot;

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Variables for the Playwright processes (runner and workers) that load the build: Playwright's TypeScript
 * loader, a hop to a loader thread for every module on Node 20, has nothing to compile there.
 */
export const builtPlaywrightVariables = (): NodeJS.ProcessEnv =>
  runsBuilt ? { PW_DISABLE_TS_ESM: '1' } : {};

/** The source a module of the suite was built from: the build's `x.js` is `x.ts` (a checkout's is itself). */
export const sourceOf = (file: string): string => (runsBuilt ? file.replace(/\.js$/, '.ts') : file);

/**
 * The modules something loads by their path (Playwright its configuration, global setup and reporters; Allure
 * its configuration; a worker thread the embedded sandboxes' entry), not by an import: the build keeps each a
 * file of its own (src/dev/build-package.ts).
 */
export const LOADED_BY_PATH = [
  'playwright.config.ts',
  'src/runner/run/global-setup.ts',
  'src/runner/run/merge.config.ts',
  'src/runner/report/kept-failures-reporter.ts',
  'src/runner/report/isolated-first-reporter.ts',
  'src/runner/report/shard-reporter.ts',
  'src/runner/report/allure/allure-results-reporter.ts',
  'src/runner/report/conformance-reporter.ts',
  'src/runner/report/allure/allurerc.ts',
  'sandbox/thread.ts',
] as const;

/** A module of the suite named by its source: the file this process loads. */
export function suiteModule(source: (typeof LOADED_BY_PATH)[number]): string {
  const file = join(codeRoot, runsBuilt ? source.replace(/\.tsx?$/, '.js') : source);
  if (!existsSync(file)) throw new Error(`no module of the suite at ${source} (${file})`);
  return file;
}
