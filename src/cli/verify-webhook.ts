// Checks a webhook's Service-Signed header against its raw body, for partners certifying their receiver:
//
//   npx tsx src/cli/verify-webhook.ts --secret-env CONFORMANCE_PARTNER_SIGNING_SECRET \
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
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

const USAGE =
  'usage: verify-webhook --secret-env NAME --signature HEADER [--timestamp VALUE] [--algorithm sha256] [--encoding hex|base64] < body';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function usageError(message: string): number {
  process.stderr.write(`verify-webhook: ${message}\n${USAGE}\n`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'secret-env': { type: 'string' },
        signature: { type: 'string' },
        timestamp: { type: 'string' },
        algorithm: { type: 'string' },
        encoding: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // The environment over CONFORMANCE_ENV_FILE: the scheme, and the secret's variable, as a run reads them.
  const env = resolveEnvironment();
  let configured: SignatureScheme;
  try {
    configured = signatureScheme(env);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const secretEnv = values['secret-env'];
  const signature = values.signature;
  const timestamp = typeof values.timestamp === 'string' ? values.timestamp : undefined;
  const encoding = String(values.encoding ?? configured.encoding) as SignatureEncoding;
  const scheme: SignatureScheme = {
    ...configured,
    algorithm: String(values.algorithm ?? configured.algorithm),
    encoding,
    timestampHeader: timestamp === undefined ? undefined : (configured.timestampHeader ?? '--timestamp'),
  };
  if (typeof secretEnv !== 'string' || secretEnv === '') return usageError('--secret-env is required');
  if (typeof signature !== 'string') return usageError('--signature is required');
  if (!SIGNATURE_ENCODINGS.includes(encoding)) return usageError(`--encoding must be hex or base64`);
  if (configured.timestampHeader !== undefined && timestamp === undefined)
    return usageError(
      `the scheme signs ${configured.timestampHeader} before the body (CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER): give its value with --timestamp`,
    );
  const secret = env[secretEnv];
  if (!secret) return usageError(`the environment variable ${secretEnv} is not set`);
  const body = await readStdin();
  let valid: boolean;
  try {
    valid = verifyWebhook(signedMessage(body, timestamp), signature, secret, scheme);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (valid) {
    process.stdout.write(`valid: ${describeScheme(scheme)} (${body.length} body bytes) matches\n`);
    return 0;
  }
  process.stdout.write(
    `invalid: the signature is not ${describeScheme(scheme)} (${body.length} body bytes) under the secret in ${secretEnv}\n`,
  );
  return 1;
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (invokedDirectly) process.exitCode = await main(process.argv.slice(2));
