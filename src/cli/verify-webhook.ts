// `physiology-conformance verify-webhook`: checks a webhook's Service-Signed header against its raw body
// (standard input, byte for byte), for partners certifying their receiver, under the suite's signature
// scheme (CONFORMANCE_SIGNATURE_*; --algorithm and --encoding override it). The secret is read from the
// variable --secret-env names, never from the command line, never printed (docs/reports.md, "Certification
// helpers"). Exit status: 0 valid, 1 invalid, 2 usage error.

import { resolveEnvironment } from '../config/environment.ts';
import { signatureScheme } from '../config/webhook-settings.ts';
import {
  describeScheme,
  SIGNATURE_ENCODINGS,
  type SignatureEncoding,
  type SignatureScheme,
  signedMessage,
  verifyWebhook,
} from '../http/webhook-signature.ts';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export interface VerifyWebhookOptions {
  /** The variable holding the signing secret (never the secret itself: shell history). */
  secretEnv: string;
  signature: string;
  timestamp?: string;
  algorithm?: string;
  encoding?: string;
}

/** `physiology-conformance verify-webhook`: its exit status. */
export async function verifyGivenWebhook(values: VerifyWebhookOptions): Promise<number> {
  // The environment over CONFORMANCE_ENV_FILE: the scheme, and the secret's variable, as a run reads them.
  const env = resolveEnvironment();
  // A problem with the scheme, the options or the secret's variable ends the command with status 2.
  const configured = signatureScheme(env);
  const { secretEnv, signature, timestamp } = values;
  const encoding = (values.encoding ?? configured.encoding) as SignatureEncoding;
  const scheme: SignatureScheme = {
    ...configured,
    algorithm: values.algorithm ?? configured.algorithm,
    encoding,
    timestampHeader: timestamp === undefined ? undefined : (configured.timestampHeader ?? '--timestamp'),
  };
  if (!SIGNATURE_ENCODINGS.includes(encoding)) throw new Error('--encoding must be hex or base64');
  if (configured.timestampHeader !== undefined && timestamp === undefined)
    throw new Error(
      `the scheme signs ${configured.timestampHeader} before the body (CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER): give its value with --timestamp`,
    );
  const secret = env[secretEnv];
  if (!secret) throw new Error(`the environment variable ${secretEnv} is not set`);
  const body = await readStdin();
  if (verifyWebhook(signedMessage(body, timestamp), signature, secret, scheme)) {
    process.stdout.write(`valid: ${describeScheme(scheme)} (${body.length} body bytes) matches\n`);
    return 0;
  }
  process.stdout.write(
    `invalid: the signature is not ${describeScheme(scheme)} (${body.length} body bytes) under the secret in ${secretEnv}\n`,
  );
  return 1;
}
