// Self tests that drive Chromium: skipped without one, or failed where CI requires it (src/run/chromium-need.ts).
import { test } from '@playwright/test';
import { chromiumPath } from '../../src/auth/browser-sign-in.ts';
import { missingChromium } from '../../src/run/chromium-need.ts';

export const hasChromium = (): boolean => chromiumPath() !== undefined;

/** Skips the running test without Chromium, or fails it where Chromium is required. */
export function needsChromium(): void {
  const missing = missingChromium();
  if (missing) test.skip(true, missing);
}
