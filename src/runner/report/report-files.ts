// The names of the files a run's report is made of, apart from what renders them (write-report.ts), so that
// what only removes or finds them (the command before Playwright starts, global setup) loads no renderer.

/** The forms rendered from conformance.json (write-report.ts renders each). */
export const FORM_FILES = [
  'conformance.md',
  'junit.xml',
  'junit-requirements.xml',
  'ctrf-report.json',
] as const;
export type FormFile = (typeof FORM_FILES)[number];

/** The report page, from the result and the requirement history (for its trend). */
export const PAGE = 'index.html';

/** The files a run's report is made of: an earlier run's are removed before a run starts. */
export const REPORT_FILES = ['conformance.json', ...FORM_FILES, PAGE];

/** The file of a matrix run's reports, one per target (src/config/run-plan.ts). */
export const MATRIX_REPORT = 'matrix.json';
