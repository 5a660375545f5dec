// Allure 3 report options: one self-contained HTML file that opens from disk, and a history file that
// carries over between runs so that trends show. The history lives beside the reports (which a run clears
// only in part): CONFORMANCE_ALLURE_HISTORY names another file, e.g. one a CI job caches between runs.
// Allure loads this TypeScript file itself (jiti).
import { allureHistoryPath } from '../../run-state/reports-dir.ts';

export default {
  name: 'Physiology Data and Partner Lab Service — conformance',
  historyPath: allureHistoryPath(),
  plugins: {
    awesome: { options: { singleFile: true, reportLanguage: 'en' } },
  },
};
