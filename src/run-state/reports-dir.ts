// Where a run writes its output: reports/ in the working directory by default (a checkout's root under npm
// run; the user's folder for an installed suite); the mutation runner gives each mutant its own.
import { join, resolve } from 'node:path';
import { processVariable } from './process-variables.ts';

const configured = processVariable('CONFORMANCE_REPORTS_DIR');
export const reportsDir = `${resolve(configured ?? 'reports')}/`;
export const reportPath = (name: string): string => reportsDir + name;

/** The Allure history, kept between runs (CONFORMANCE_ALLURE_HISTORY names another file, e.g. a CI cache). */
export const allureHistoryPath = (): string =>
  processVariable('CONFORMANCE_ALLURE_HISTORY') ?? join(configured ?? 'reports', 'allure-history.jsonl');
