// Paths of the command-line tools the scripts start as child processes (without npx, so their pids are known).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A package's directory: from its main entry up to its package.json (some packages do not export it). */
function packageDir(pkg: string): string {
  let dir = dirname(require.resolve(pkg));
  while (dir !== dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === pkg
    )
      return dir;
    dir = dirname(dir);
  }
  throw new Error(`cannot find the directory of package ${pkg}`);
}

export const playwrightCli = () => join(packageDir('@playwright/test'), 'cli.js');
/** The file `import '@playwright/test'` loads, for a test file outside the package (the bench's empty run). */
export const playwrightTestEntry = () => require.resolve('@playwright/test');
export const allureCli = () => join(packageDir('allure'), 'cli.js');
