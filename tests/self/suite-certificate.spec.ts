// A certificate proves what it says: a certification of the embedded sandbox, signed with a key of the test's
// own (CONFORMANCE_SIGNING_KEY_FILE), verifies with its public key and fails with another; a result edited
// and not hashed again, edited and hashed again with the suite's own digest function (signed: the signature
// fails; unsigned: its verdict no longer follows from its tests' findings), or left with a MUST requirement
// unrun is refused. An unsigned result says plainly it carries a digest, not a signature.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceResult } from '../../src/result/schema.ts';
import { readResult } from '../../src/result/validate.ts';
import { DIGEST_ONLY } from '../../src/runner/report/certificate.ts';
import { computeDigest } from '../../src/runner/report/digest.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { scratchDir } from './scratch.ts';

test.describe.configure({ timeout: WHOLE_RUN_TIMEOUT_MS });

/** An Ed25519 key pair as PEM files in `dir`: the private key's path and the public key's. */
function keyPair(dir: string, name: string): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('ed25519');
  const files = { privateKey: join(dir, `${name}.key`), publicKey: join(dir, `${name}.pub`) };
  writeFileSync(files.privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(files.publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return files;
}

/** `verify-report` of `result` written to a file of `dir` (its name `name`), with its arguments. */
async function verify(dir: string, name: string, result: unknown, ...args: string[]) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(result));
  const [command, commandArgs] = cli('verify-report', file, ...args);
  return runProcess(command, commandArgs, {}, true);
}

/** `result` with its digest computed again over what it now says (its signature, if any, kept as it was). */
const rehashed = (result: ConformanceResult): ConformanceResult => ({
  ...result,
  digest: {
    ...computeDigest(result),
    ...(result.digest?.statement ? { statement: result.digest.statement } : {}),
  },
});

/** A check's failure in the result's first passing test, as if the run had seen it: its findings say FAIL. */
function withFailureFound(result: ConformanceResult): ConformanceResult {
  const at = result.tests.findIndex((t) => t.outcome === 'pass' && t.requirements.length > 0);
  const tests = result.tests.map((t, i) =>
    i === at
      ? {
          ...t,
          status: 'failed' as const,
          outcome: 'fail' as const,
          failedRequirements: [t.requirements[0] ?? ''],
          findings: [
            { requirement: t.requirements[0] ?? '', outcome: 'fail' as const, message: 'strain 22.4' },
          ],
        }
      : t,
  );
  return { ...result, tests };
}

test('a signed certification verifies with its public key, fails with another, and an edited one is refused', async () => {
  const dir = scratchDir();
  const key = keyPair(dir, 'certifier');
  const other = keyPair(dir, 'other');
  const reports = join(dir, 'reports');
  const [command, args] = cli('run');
  const run = await runProcess(
    command,
    args,
    {
      CONFORMANCE_ENV_FILE: undefined,
      CONFORMANCE_BASE_URL: undefined,
      CONFORMANCE_REPORTS_DIR: reports,
      CONFORMANCE_PROFILE: 'certification',
      CONFORMANCE_SIGNING_KEY_FILE: key.privateKey,
    },
    true,
  );
  expect(run.code, run.output.slice(-3000)).toBe(0);
  const signed = readResult(join(reports, 'conformance.json'));
  expect(signed.signature?.algorithm).toBe('ed25519');
  expect(signed.signature?.key).toMatch(/^sha256:[0-9a-f]{64}$/);

  const good = await verify(dir, 'signed', signed, '--public-key', key.publicKey);
  expect(good.code, good.output).toBe(0);
  expect(good.output).toContain(`signature verifies with ${key.publicKey} (${signed.signature?.key})`);
  expect(good.output).toContain("its verdict, requirements and completeness follow from its tests' findings");
  const another = await verify(dir, 'signed', signed, '--public-key', other.publicKey);
  expect(another.code).toBe(1);
  expect(another.output).toContain(`the signature does not verify with the public key in ${other.publicKey}`);
  // Without the key, verify-report says what it did not check.
  const unchecked = await verify(dir, 'signed', signed);
  expect(unchecked.output).toContain(
    `signed by key ${signed.signature?.key}, not checked: give --public-key`,
  );

  // The base URL edited, not hashed again: the digest covers the whole result.
  const moved = await verify(dir, 'moved', { ...signed, baseUrl: 'https://certified.example/developer' });
  expect(moved.code).toBe(1);
  expect(moved.output).toContain('digest does not match: results');

  // A result whose findings fail, its verdict and requirements edited to PASS and hashed again.
  const failing = withFailureFound(signed);
  const forged = rehashed(failing);
  const signedForgery = await verify(dir, 'forged-signed', forged, '--public-key', key.publicKey);
  expect(signedForgery.code).toBe(1);
  expect(signedForgery.output).toContain('the signature does not verify');
  const { signature: _, ...unsigned } = forged;
  const unsignedForgery = await verify(dir, 'forged', unsigned);
  expect(unsignedForgery.code).toBe(1);
  expect(unsignedForgery.output).toContain('no signature: the result carries an integrity digest');
  expect(unsignedForgery.output).toContain("verdict PASS, where its tests' findings give FAIL");
  expect(unsignedForgery.output).toMatch(
    /requirement statuses its tests' findings do not give: [A-Z0-9-]+ pass \(its tests give fail\)/,
  );
  const withPublicKey = await verify(dir, 'forged', unsigned, '--public-key', key.publicKey);
  expect(withPublicKey.output).toContain('the result carries no signature');

  // A MUST requirement's tests taken out of the result: run by no test, refused.
  const [first] = signed.requirements.filter(
    (r) => r.level === 'MUST' && r.verifiable && r.status === 'pass',
  );
  const titles = new Set(first?.tests.map((t) => t.title));
  const unrun = rehashed({ ...signed, tests: signed.tests.filter((t) => !titles.has(t.title)) });
  const { signature: __, ...unrunUnsigned } = unrun;
  const missing = await verify(dir, 'unrun', unrunUnsigned);
  expect(missing.code).toBe(1);
  expect(missing.output).toContain(
    `not a certificate: MUST requirements not verified: [], where its tests give [`,
  );

  // Unsigned, untouched: a certificate by its digest alone, which says so.
  const plain = rehashed({
    ...signed,
    signature: undefined,
    digest: { ...signed.digest, statement: DIGEST_ONLY } as ConformanceResult['digest'],
  });
  const digestOnly = await verify(dir, 'plain', plain);
  expect(digestOnly.code, digestOnly.output).toBe(0);
  expect(digestOnly.output).toContain(`no signature: the result carries ${DIGEST_ONLY}`);
});
