// Where `npm test`'s browser steps run: a sign-in on a page built by script needs Chromium. On a machine
// without one they are skipped, loudly, so that the README's test command passes on a fresh machine; CI
// sets SELF_TESTS_NEED_CHROMIUM=1 (.ci/run), and there a missing Chromium fails them instead.
import { CHROMIUM_FIX, chromiumPath } from '../../config/chromium.ts';

export const NO_CHROMIUM = `no Chromium (${CHROMIUM_FIX})`;

/** Why a browser step cannot run here (undefined: it can), or throws where Chromium is required. */
export function missingChromium(): string | undefined {
  if (chromiumPath() !== undefined) return undefined;
  if (process.env.SELF_TESTS_NEED_CHROMIUM === '1')
    throw new Error(`${NO_CHROMIUM}, and SELF_TESTS_NEED_CHROMIUM=1 requires one`);
  return NO_CHROMIUM;
}
