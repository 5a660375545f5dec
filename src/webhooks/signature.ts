// Webhook signatures, for partners certifying their receiver and for the suite's webhook checks. The seed
// says webhook requests carry the header Service-Signed, checked with the partner's signing secret; the
// algorithm and what is signed are not shown (WH-SIGNATURE-ALGORITHM). The default here is what the
// sandbox does and what a reference receiver expects: HMAC-SHA256 of the raw request body, hex encoded,
// optionally written `sha256=<digest>`. Algorithm and encoding are parameters.
import { createHmac, getHashes, timingSafeEqual } from 'node:crypto';

export type SignatureEncoding = 'hex' | 'base64';

export interface VerifyOptions {
  /** HMAC hash algorithm (a node:crypto hash name, e.g. sha256, sha512). Default sha256. */
  algorithm?: string;
  /** Encoding of the digest in the header. Default hex. */
  encoding?: SignatureEncoding;
}

export const SIGNATURE_HEADER = 'Service-Signed';
export const SIGNATURE_ENCODINGS: readonly SignatureEncoding[] = ['hex', 'base64'];

/** Throws for a hash algorithm node:crypto does not know (a configuration error, not an invalid signature). */
export function assertAlgorithm(algorithm: string): void {
  if (!getHashes().includes(algorithm.toLowerCase()))
    throw new Error(`unknown HMAC algorithm "${algorithm}" (e.g. sha256, sha384, sha512)`);
}

/** The signature of `rawBody`: HMAC-`algorithm` keyed with `secret`, encoded as `encoding`. */
export function signWebhook(
  rawBody: string | Uint8Array,
  secret: string,
  algorithm = 'sha256',
  encoding: SignatureEncoding = 'hex',
): string {
  assertAlgorithm(algorithm);
  return createHmac(algorithm.toLowerCase(), secret).update(rawBody).digest(encoding);
}

const HEX = /^(?:[0-9a-f]{2})+$/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The digest bytes a header carries, or undefined when it is not a well-formed digest in `encoding`. */
function digestOf(header: string, algorithm: string, encoding: SignatureEncoding): Buffer | undefined {
  let value = header.trim();
  const prefix = `${algorithm.toLowerCase()}=`;
  if (value.toLowerCase().startsWith(prefix)) value = value.slice(prefix.length);
  if (encoding === 'hex') return HEX.test(value) ? Buffer.from(value, 'hex') : undefined;
  if (!BASE64.test(value)) return undefined;
  return Buffer.from(value.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
}

/**
 * Whether `header` (the Service-Signed value, with or without an `<algorithm>=` prefix) is the signature
 * of `rawBody` under `secret`. Compares in constant time; a missing or malformed header is invalid.
 * Throws only for an unknown algorithm.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | undefined,
  secret: string,
  { algorithm = 'sha256', encoding = 'hex' }: VerifyOptions = {},
): boolean {
  assertAlgorithm(algorithm);
  if (!SIGNATURE_ENCODINGS.includes(encoding))
    throw new Error(`unknown encoding "${encoding}" (hex, base64)`);
  if (header === undefined) return false;
  const given = digestOf(header, algorithm, encoding);
  const expected = createHmac(algorithm.toLowerCase(), secret).update(rawBody).digest();
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
}
