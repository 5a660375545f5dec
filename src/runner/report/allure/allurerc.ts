// Allure 3 report options: one self-contained HTML file that opens from disk, and a history file that
// carries over between runs so that trends show. The history lives beside the reports (which a run clears
// only in part): CONFORMANCE_ALLURE_HISTORY names another file, e.g. one a CI job caches between runs.
// Allure loads this TypeScript file itself (jiti). The Allure 2 look: its plugin sends no analytics when told
// (ALLURE_NO_ANALYTICS), where Allure 3's own (awesome) always loads Google's tag script (docs/reports.md).
import { allureHistoryPath } from '../../../run-state/reports-dir.ts';

// Set here, where every `allure generate` of this configuration reads it: no report of ours calls home.
process.env.ALLURE_NO_ANALYTICS = 'true';

export default {
  name: 'Physiology Data and Partner Lab Service — conformance',
  historyPath: allureHistoryPath(),
  plugins: {
    allure2: { options: { singleFile: true, reportLanguage: 'en' } },
  },
};
