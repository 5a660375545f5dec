// `npm run verify-report -- reports/conformance.json`: checks a report against the published result schema
// (a field missing, one the schema does not name, a status outside its lists: refused, exit 1), then a
// certification report's digest against this checkout's spec, schemas and suite version and the report's
// own results. Exit 0 when it matches.
import { readFileSync } from 'node:fs';
import { certifiedResults, computeDigest } from '../report/digest.ts';
import type { ConformanceReport } from '../report/model.ts';
import { RESULT_SCHEMA_VERSION } from '../result/schema.ts';
import { resultProblems } from '../result/validate.ts';

/** Why a report is not of its whole profile, if it is not (its run's selection, src/config/selection.ts). */
function narrowing(report: Partial<Pick<ConformanceReport, 'selection'>>): string | undefined {
  if (!Array.isArray(report.selection))
    return 'the report does not record whether its run was narrowed (written by an older suite)';
  if (report.selection.length > 0)
    return `the run was narrowed to part of the profile (${report.selection.join('; ')})`;
  return undefined;
}

/** `physiology-conformance verify-report FILE`: its exit status. */
export function verifyReport(file: string): number {
  const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const problems = resultProblems(data);
  if (problems.length > 0) {
    console.log(`${file} does not follow the result schema ${RESULT_SCHEMA_VERSION}:`);
    for (const problem of problems) console.log(`  ${problem}`);
    return 1;
  }
  const report = data as ConformanceReport;
  console.log(`${file} follows the result schema (written under ${report.schemaVersion})`);
  if (!report.digest) {
    console.error(`${file} has no digest (only the certification profile writes one)`);
    return 2;
  }
  const expected = computeDigest(certifiedResults(report));
  const mismatches = (['spec', 'suiteVersion', 'results', 'combined'] as const).filter(
    (key) => expected[key] !== report.digest?.[key],
  );
  if (mismatches.length === 0) {
    console.log(
      `digest ${report.digest.combined} matches this spec, these schemas, suite ${expected.suiteVersion} and the report's results`,
    );
    // The digest covers the selection: a report of part of the profile, or one that does not say, certifies nothing.
    const narrowed = narrowing(report);
    if (narrowed) {
      console.log(`not a certificate: ${narrowed}`);
      return 1;
    }
    // The digest covers the verdict and its completeness: only a PASS is a certificate.
    if (report.verdict === 'pass') {
      console.log('verdict PASS: every MUST requirement in the profile was verified and passed');
      return 0;
    }
    console.log(
      `verdict ${String(report.verdict).toUpperCase()}: not a certificate` +
        (report.incomplete?.length
          ? ` (${report.incomplete.length} MUST requirement(s) not verified: ${report.incomplete.map((r) => r.id).join(', ')})`
          : ''),
    );
    return 1;
  }
  console.log(
    `digest does not match: ${mismatches.map((key) => `${key} (report ${report.digest?.[key]}, here ${expected[key]})`).join('; ')}`,
  );
  return 1;
}
