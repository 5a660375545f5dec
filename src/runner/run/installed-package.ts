// The suite as a user gets it: the checkout packed (`npm pack`, which builds it) and installed into an empty
// folder, from the npm cache where it can. The package self test and `npm run bench -- --package` use it.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../run-state/package.ts';

const run = promisify(execFile);

/** The tarball `npm pack` makes of the checkout, in `folder`. */
export async function packCheckout(folder: string): Promise<string> {
  await run('npm', ['pack', '--pack-destination', folder], { cwd: packageRoot });
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${folder}`);
  return join(folder, tarball);
}

/** A tarball installed into `folder` (made if missing): npm's stderr, and the installed package's command. */
export async function installTarball(
  tarball: string,
  folder: string,
): Promise<{ stderr: string; command: (...args: string[]) => [string, string[]] }> {
  mkdirSync(folder, { recursive: true });
  // `npm ci` cached every tarball; npm 11 also wants full registry metadata, which only the registry has.
  const { stderr } = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: folder,
  });
  const bin = join(folder, 'node_modules', 'physiology-conformance', 'bin', 'physiology-conformance.mjs');
  return { stderr, command: (...args) => [process.execPath, [bin, ...args]] };
}
