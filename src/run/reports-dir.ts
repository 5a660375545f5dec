// Where a run writes its output: reports/ by default; the mutation runner gives each mutant its own.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processVariable } from '../config/environment.ts';

const configured = processVariable('CONFORMANCE_REPORTS_DIR');
export const reportsDir = configured
  ? `${resolve(configured)}/`
  : fileURLToPath(new URL('../../reports/', import.meta.url));
export const reportPath = (name: string): string => reportsDir + name;

/** The Allure history, kept between runs (CONFORMANCE_ALLURE_HISTORY names another file, e.g. a CI cache). */
export const allureHistoryPath = (): string =>
  processVariable('CONFORMANCE_ALLURE_HISTORY') ?? join(configured ?? 'reports', 'allure-history.jsonl');
