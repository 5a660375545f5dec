// Allure 3 report options: one self-contained HTML file that opens from disk, and a history file that
// carries over between runs so that trends show. The history lives beside the reports (which a run clears
// only in part): CONFORMANCE_ALLURE_HISTORY names another file, e.g. one a CI job caches between runs.
import { join } from 'node:path';

export default {
  name: 'Physiology Data and Partner Lab Service — conformance',
  historyPath:
    process.env.CONFORMANCE_ALLURE_HISTORY ||
    join(process.env.CONFORMANCE_REPORTS_DIR || 'reports', 'allure-history.jsonl'),
  plugins: {
    awesome: { options: { singleFile: true, reportLanguage: 'en' } },
  },
};
