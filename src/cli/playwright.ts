// Paths of the command-line tools the scripts start as child processes (without npx, so their pids are known).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const packageFile = (pkg: string, file: string) =>
  join(dirname(require.resolve(`${pkg}/package.json`)), file);

export const playwrightCli = () => packageFile('@playwright/test', 'cli.js');
export const allureCli = () => packageFile('allure', 'cli.js');
