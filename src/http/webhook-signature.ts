// Webhook signatures, for partners certifying their receiver and for the suite's webhook checks. The seed
// says webhook requests carry the header Service-Signed, checked with the partner's signing secret; the
// algorithm and what is signed are not shown (WH-SIGNATURE-ALGORITHM). The default scheme is what the
// sandbox does and what a reference receiver expects: HMAC-SHA256 of the raw request body, hex encoded,
// optionally written `sha256=<digest>`. The scheme is configuration (src/config/config.ts, one resolution
// shared by the webhook checks and `npm run verify-webhook`): the header, the algorithm, the encoding, and
// what is signed: the raw body, or a timestamp header's value followed by the body.
import { createHmac, getHashes, timingSafeEqual } from 'node:crypto';

export type SignatureEncoding = 'hex' | 'base64';

export interface VerifyOptions {
  /** HMAC hash algorithm (a node:crypto hash name, e.g. sha256, sha512). Default sha256. */
  algorithm?: string;
  /** Encoding of the digest in the header. Default hex. */
  encoding?: SignatureEncoding;
}

/** How a service signs its webhooks. */
export interface SignatureScheme extends Required<VerifyOptions> {
  /** The header that carries the signature (the seed's Service-Signed). */
  header: string;
  /** A header whose value is signed before the body (`<timestamp><body>`); undefined: the body alone. */
  timestampHeader?: string;
  /** Whether the team configured the scheme (else it is the suite's reading of what the seed leaves open). */
  configured: boolean;
}

export const SIGNATURE_HEADER = 'Service-Signed';
export const SIGNATURE_ENCODINGS: readonly SignatureEncoding[] = ['hex', 'base64'];
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = {
  header: SIGNATURE_HEADER,
  algorithm: 'sha256',
  encoding: 'hex',
  configured: false,
};

/** Throws for a hash algorithm node:crypto does not know (a configuration error, not an invalid signature). */
export function assertAlgorithm(algorithm: string): void {
  if (!getHashes().includes(algorithm.toLowerCase()))
    throw new Error(`unknown HMAC algorithm "${algorithm}" (e.g. sha256, sha384, sha512)`);
}

/** The bytes a signature covers: the timestamp header's value (when the scheme signs one), then the body. */
export function signedMessage(rawBody: string | Uint8Array, timestamp?: string): Buffer {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody);
  return timestamp === undefined ? body : Buffer.concat([Buffer.from(timestamp), body]);
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
 * of `message` (the raw body, or see signedMessage) under `secret`. Compares in constant time; a missing
 * or malformed header is invalid. Throws only for an unknown algorithm or encoding.
 */
export function verifyWebhook(
  message: string | Uint8Array,
  header: string | undefined,
  secret: string,
  { algorithm = 'sha256', encoding = 'hex' }: VerifyOptions = {},
): boolean {
  assertAlgorithm(algorithm);
  if (!SIGNATURE_ENCODINGS.includes(encoding))
    throw new Error(`unknown encoding "${encoding}" (hex, base64)`);
  if (header === undefined) return false;
  const given = digestOf(header, algorithm, encoding);
  const expected = createHmac(algorithm.toLowerCase(), secret).update(message).digest();
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
}

/** A webhook request as a receiver got it: a header by (case-insensitive) name, and the raw body. */
export interface SignedRequest {
  header(name: string): string | undefined;
  body: Uint8Array;
}

/** Why a request does not verify under `scheme` (undefined: it verifies). */
export function signatureProblem(
  request: SignedRequest,
  secret: string,
  scheme: SignatureScheme,
): string | undefined {
  const signature = request.header(scheme.header);
  if (signature === undefined) return `no ${scheme.header} header`;
  const timestamp = scheme.timestampHeader === undefined ? undefined : request.header(scheme.timestampHeader);
  if (scheme.timestampHeader !== undefined && timestamp === undefined)
    return `no ${scheme.timestampHeader} header (the signed timestamp)`;
  return verifyWebhook(signedMessage(request.body, timestamp), signature, secret, scheme)
    ? undefined
    : `${scheme.header} is not ${describeScheme(scheme)}`;
}

/** The scheme in words: `the hex HMAC-sha256 of the raw body`. */
export function describeScheme(scheme: SignatureScheme): string {
  const what =
    scheme.timestampHeader === undefined
      ? 'the raw body'
      : `${scheme.timestampHeader} followed by the raw body`;
  return `the ${scheme.encoding} HMAC-${scheme.algorithm} of ${what}`;
}
