#!/usr/bin/env node
// The command. Installed, it runs the suite's JavaScript build (dist/, made by `npm pack`); in a checkout
// without a build, the TypeScript sources through tsx, as `npm run conformance` does.
import { existsSync } from 'node:fs';

const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(built)) await import(built.href);
else {
  const tsx = await import('tsx/esm/api').catch(() => undefined);
  if (!tsx) {
    console.error(
      'physiology-conformance: no build (dist/) and no tsx to run the sources: run `npm ci` in the checkout',
    );
    process.exit(2);
  }
  tsx.register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
