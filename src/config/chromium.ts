// Chromium, which the browser sign-in drives: where it is (CONFORMANCE_CHROMIUM, set in the environment or
// its env file, else the variable's default), and what to do when there is none, said once.
import { existsSync } from 'node:fs';
import { resolveEnvironment } from './environment.ts';
import { type Env, read } from './variables.ts';

/** What to do when there is no Chromium. */
export const CHROMIUM_FIX = 'apt-get install chromium, or name it in CONFORMANCE_CHROMIUM';

/** A run's remedy for a sign-in that needs Chromium where there is none. */
export const CHROMIUM_REMEDY = `${CHROMIUM_FIX}; or run \`npm run login\` where one is and give its token store (CONFORMANCE_TOKEN_STORE)`;

/** Where Chromium should be: CONFORMANCE_CHROMIUM of the environment over its env file, else the default. */
export const chromiumSetting = (env: Env = resolveEnvironment()): string => read(env, 'CONFORMANCE_CHROMIUM');

/** Where Chromium is; undefined when there is none where it should be. */
export function chromiumPath(env?: Env): string | undefined {
  const path = chromiumSetting(env);
  return existsSync(path) ? path : undefined;
}
