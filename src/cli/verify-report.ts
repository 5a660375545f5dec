// `npm run verify-report -- reports/conformance.json`: checks a certification report's digest against this
// checkout's spec, schemas and suite version and the report's own results. Exit 0 when it matches.
import { readFileSync } from 'node:fs';
import { computeDigest } from '../report/digest.ts';
import type { ConformanceReport } from '../report/model.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run verify-report -- <conformance.json>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
if (!report.digest) {
  console.error(`${file} has no digest (only the certification profile writes one)`);
  process.exit(2);
}
const expected = computeDigest(report.requirements);
const mismatches = (['spec', 'suiteVersion', 'results', 'combined'] as const).filter(
  (key) => expected[key] !== report.digest?.[key],
);
if (mismatches.length === 0) {
  console.log(
    `digest ${report.digest.combined} matches this spec, these schemas, suite ${expected.suiteVersion} and the report's results`,
  );
  process.exit(0);
}
console.log(
  `digest does not match: ${mismatches.map((key) => `${key} (report ${report.digest?.[key]}, here ${expected[key]})`).join('; ')}`,
);
process.exit(1);
