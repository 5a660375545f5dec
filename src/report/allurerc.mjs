// Allure 3 report options: one self-contained HTML file that opens from disk.
export default {
  name: 'Physiology Data and Partner Lab Service — conformance',
  plugins: {
    awesome: { options: { singleFile: true, reportLanguage: 'en' } },
  },
};
