// Checks a webhook's Service-Signed header against its raw body, for partners certifying their receiver:
//
//   physiology-conformance verify-webhook --secret-env CONFORMANCE_PARTNER_A_SIGNING_SECRET \
//     --signature '<Service-Signed header>' [--timestamp '<timestamp header>'] \
//     [--algorithm sha256] [--encoding hex|base64] < body.json
//
// The scheme is the suite's configuration (CONFORMANCE_SIGNATURE_ALGORITHM, _ENCODING, _TIMESTAMP_HEADER,
// from the environment and CONFORMANCE_ENV_FILE, as the webhook checks read it); --algorithm and
// --encoding override it. When the scheme signs a timestamp header's value before the body, --timestamp
// gives that header's value. The body is read from standard input byte for byte (the signature covers the
// exact bytes received).
// The signing secret is read from the environment variable named by --secret-env, never from the command
// line (shell history) and never printed. Exit status: 0 valid, 1 invalid, 2 usage error.

import { resolveEnvironment } from '../config/environment.ts';
import { signatureScheme } from '../config/webhook-settings.ts';
import {
  describeScheme,
  SIGNATURE_ENCODINGS,
  type SignatureEncoding,
  type SignatureScheme,
  signedMessage,
  verifyWebhook,
} from '../webhooks/signature.ts';

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
