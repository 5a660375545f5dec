// `physiology-conformance verify-report FILE [--public-key KEY]`: checks a result against the published result
// schema (refused, exit 1, where it departs), then a certification result's certificate: its digest against
// this checkout's spec, schemas, suite version and the whole result; its signature with the public key given;
// its verdict, requirements and completeness against its own tests' findings; its profile, whole and every MUST
// requirement run. Exit 0: a certificate (docs/reports.md, "Certificates").
import { readFileSync } from 'node:fs';
import { profileReasons, profileRow } from '../config/profiles.ts';
import { RESULT_SCHEMA_VERSION } from '../result/identity.ts';
import { resultProblems } from '../result/validate.ts';
import { passText } from '../runner/render/verdict-cause.ts';
import { DIGEST_ONLY, signatureProblem } from '../runner/report/certificate.ts';
import { computeDigest } from '../runner/report/digest.ts';
import type { ConformanceReport } from '../runner/report/model.ts';
import { disagreements } from '../runner/report/recompute.ts';

/** How the digest differs from the one computed here, one line; undefined when it matches. */
function digestMismatch(report: ConformanceReport): string | undefined {
  const expected = computeDigest(report);
  const keys = (['spec', 'suiteVersion', 'results', 'combined'] as const).filter(
    (key) => expected[key] !== report.digest?.[key],
  );
  if (keys.length === 0) return undefined;
  // Before 1.2.0 a digest covered the verdict, completeness, selection and requirements only.
  const older = /^1\.[01]\./.test(report.schemaVersion)
    ? `; written under ${report.schemaVersion}, whose digest covers part of the result: check it with the suite ${report.suite.version} that wrote it`
    : '';
  return `digest does not match: ${keys.map((key) => `${key} (report ${report.digest?.[key]}, here ${expected[key]})`).join('; ')}${older}`;
}

/** What the signature says, checked with `publicKey` where one is given; a problem refuses the result. */
function signatureCheck(report: ConformanceReport, publicKey: string | undefined) {
  const { signature } = report;
  if (publicKey) {
    const problem = signatureProblem(report, publicKey);
    return problem
      ? { problem }
      : { line: `signature verifies with ${publicKey} (${signature?.key}): ${signature?.statement}` };
  }
  if (signature)
    return {
      line: `signed by key ${signature.key}, not checked: give --public-key to check it (without it, only the digest was checked, and ${DIGEST_ONLY.split(': ')[1]})`,
    };
  return {
    line: `no signature: the result carries ${DIGEST_ONLY}; a result edited and hashed again with this suite's digest function matches too, and is caught below only where its own tests' findings say otherwise`,
  };
}

/** The MUST requirements the result leaves omitted without its profile's reason (no test ran them). */
function omittedWithoutReason(report: ConformanceReport): string[] {
  const reasons = profileReasons(report.profile);
  const byReason = new Set(
    report.tests
      .filter((test) => test.findings.some((f) => f.outcome === 'omitted' && reasons.includes(f.message)))
      .map((test) => test.title),
  );
  return report.requirements
    .filter((r) => r.level === 'MUST' && r.verifiable && r.status === 'omitted')
    .filter((r) => r.tests.length === 0 || r.tests.some((test) => !byReason.has(test.title)))
    .map((r) => r.id);
}

/** Why a result that holds together is no certificate, if it is not. */
function notACertificate(report: ConformanceReport): string | undefined {
  if (!profileRow(report.profile)?.digest) return `the ${report.profile} profile certifies nothing`;
  if (report.selection.length > 0)
    return `the run was narrowed to part of the profile (${report.selection.join('; ')})`;
  const unrun = omittedWithoutReason(report);
  if (unrun.length > 0)
    return `${unrun.length} MUST requirement(s) of the profile run by no test, without the profile's reason: ${unrun.join(', ')}`;
  if (report.verdict === 'pass') return undefined;
  const notVerified = report.incomplete.length
    ? ` (${report.incomplete.length} MUST requirement(s) not verified: ${report.incomplete.map((r) => r.id).join(', ')})`
    : '';
  return `verdict ${report.verdict.toUpperCase()}${notVerified}`;
}

/** `physiology-conformance verify-report FILE`: its exit status. */
export function verifyReport(file: string, { publicKey }: { publicKey?: string } = {}): number {
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
  const mismatch = digestMismatch(report);
  if (mismatch) {
    console.log(mismatch);
    return 1;
  }
  console.log(
    `digest ${report.digest.combined} matches this spec, these schemas, suite ${report.digest.suiteVersion} and the whole result`,
  );
  const signature = signatureCheck(report, publicKey);
  console.log(signature.problem ? `not a certificate: ${signature.problem}` : signature.line);
  if (signature.problem) return 1;
  const disagreeing = disagreements(report);
  for (const line of disagreeing) console.log(`not a certificate: ${line}`);
  if (disagreeing.length > 0) return 1;
  console.log("its verdict, requirements and completeness follow from its tests' findings");
  const refusal = notACertificate(report);
  if (refusal) {
    console.log(`not a certificate: ${refusal}`);
    return 1;
  }
  // Literally true: a MUST requirement the data cannot show is said as not counted (verdict-cause.ts).
  console.log(`verdict PASS: ${passText(report)}`);
  return 0;
}
