// A certification result's certificate: its digest (src/runner/report/digest.ts), and where the certifying party
// holds a key (CONFORMANCE_SIGNING_KEY_FILE), an Ed25519 signature of it (node:crypto). A signature proves
// this result, unaltered, from whoever holds the private key; it does not prove who that is, nor the server
// conformant beyond what the run ran. Without one, the digest alone cannot tell a result edited and hashed
// again with this suite (docs/reports.md, "Certificates").
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { profileRow } from '../../config/profiles.ts';
import { computeDigest, type Digest } from './digest.ts';
import type { ConformanceReport } from './model.ts';

export type Signature = NonNullable<ConformanceReport['signature']>;

export const DIGEST_ONLY =
  'an integrity digest, not a signature: it shows the result unchanged since it was hashed, not who hashed it; anyone with this suite can hash an edited result again (CONFORMANCE_SIGNING_KEY_FILE signs it)';

const SIGNED =
  'signed: this result, unaltered, from whoever holds the private key of this fingerprint; it does not say who that is, nor that the server conforms beyond what this run ran';

/** What is signed: the digest's combined hash, after a prefix that keeps the signature to this use. */
const signedText = (digest: Pick<Digest, 'combined'>): string =>
  `physiology-conformance result ${digest.combined}`;

/** A key's fingerprint: `sha256:` and the hex SHA-256 of its public key (SPKI, DER). */
export const fingerprintOf = (key: KeyObject): string =>
  `sha256:${createHash('sha256')
    .update((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }))
    .digest('hex')}`;

/**
 * The report with its certificate where its profile certifies (the certification profile): its digest over the
 * whole result, signed with the key of `keyFile` when one is given; any other report as it is.
 */
export function certified(report: ConformanceReport, keyFile: string | undefined): ConformanceReport {
  if (!profileRow(report.profile)?.digest) return report;
  const digest = computeDigest(report);
  if (!keyFile) return { ...report, digest: { ...digest, statement: DIGEST_ONLY } };
  const key = createPrivateKey(readFileSync(keyFile));
  const signed = signedText(digest);
  const signature: Signature = {
    algorithm: 'ed25519',
    key: fingerprintOf(key),
    signed: 'the digest’s combined hash, after "physiology-conformance result "',
    value: sign(null, Buffer.from(signed), key).toString('base64'),
    statement: SIGNED,
  };
  return { ...report, digest, signature };
}

/** Why the report's signature does not hold with the public key of `keyFile`; undefined when it does. */
export function signatureProblem(report: ConformanceReport, keyFile: string): string | undefined {
  if (!report.signature)
    return 'the result carries no signature (it was written without CONFORMANCE_SIGNING_KEY_FILE)';
  if (!report.digest) return 'the result carries a signature but no digest';
  const key = createPublicKey(readFileSync(keyFile));
  if (key.asymmetricKeyType !== 'ed25519')
    return `${keyFile} holds a ${key.asymmetricKeyType} key, not Ed25519`;
  const holds = verify(
    null,
    Buffer.from(signedText(report.digest)),
    key,
    Buffer.from(report.signature.value, 'base64'),
  );
  if (holds) return undefined;
  const other =
    fingerprintOf(key) === report.signature.key
      ? ''
      : ` (it names key ${report.signature.key}, this is ${fingerprintOf(key)})`;
  return `the signature does not verify with the public key in ${keyFile}${other}: the result was altered after it was signed, or signed with another key`;
}
