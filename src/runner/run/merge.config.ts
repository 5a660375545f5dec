// The configuration `physiology-conformance merge-reports` merges shards' blob reports with: the run's own
// reports (src/runner/run/reporters.ts), so a sharded run ends with one verdict, one page and one conformance.json.
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { codeRoot } from '../../run-state/package.ts';
import { reportReporters } from './reporters.ts';

export default defineConfig({
  testDir: join(codeRoot, 'tests', 'conformance'),
  reporter: [['list'], ...reportReporters()],
});
