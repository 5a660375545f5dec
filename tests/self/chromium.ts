// Self tests that drive Chromium: skipped without one, or failed where CI requires it (src/runner/run/chromium-need.ts).
import { test } from '@playwright/test';
import { missingChromium } from '../../src/runner/run/chromium-need.ts';

/** Skips the running test without Chromium, or fails it where Chromium is required. */
export function needsChromium(): void {
  const missing = missingChromium();
  if (missing) test.skip(true, missing);
}

/** Whether a test that also covers the browser does so here (false without Chromium; throws where CI requires it). */
export const browserToo = (): boolean => missingChromium() === undefined;
