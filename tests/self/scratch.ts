// A fresh, existing directory for the current test's files.
import { mkdirSync } from 'node:fs';
import { test } from '@playwright/test';

export function scratchDir(): string {
  const dir = test.info().outputDir;
  mkdirSync(dir, { recursive: true });
  return dir;
}
