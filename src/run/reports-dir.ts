// Where a run writes its output: reports/ by default; the mutation runner gives each mutant its own.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const reportsDir = process.env.CONFORMANCE_REPORTS_DIR
  ? `${resolve(process.env.CONFORMANCE_REPORTS_DIR)}/`
  : fileURLToPath(new URL('../../reports/', import.meta.url));
export const reportPath = (name: string): string => reportsDir + name;
