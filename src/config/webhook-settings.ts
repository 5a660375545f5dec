// The webhook section of the configuration: the suite's receiver on a real target, how long a check
// waits, and the signature scheme (shared by the webhook checks and `npm run verify-webhook`).
import type { SignatureScheme } from '../http/webhook-signature.ts';
import type { WebhookSettings } from './suite-config.ts';
import { group } from './variable-group.ts';
import { type Env, read, rows } from './variables.ts';

/** The webhook signature scheme of CONFORMANCE_SIGNATURE_* (configured: any of them is set). */
export function signatureScheme(env: Env): SignatureScheme {
  const timestampHeader = read(env, 'CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER');
  return {
    header: read(env, 'CONFORMANCE_SIGNATURE_HEADER'),
    algorithm: read(env, 'CONFORMANCE_SIGNATURE_ALGORITHM'),
    encoding: read(env, 'CONFORMANCE_SIGNATURE_ENCODING'),
    ...(timestampHeader ? { timestampHeader } : {}),
    configured: rows().some(([name]) => name.startsWith('CONFORMANCE_SIGNATURE_') && !!env[name]),
  };
}

export function webhookSettings(env: Env): WebhookSettings {
  const receiver = group(env, {
    listen: 'CONFORMANCE_WEBHOOK_LISTEN',
    publicUrl: 'CONFORMANCE_WEBHOOK_PUBLIC_URL',
  });
  return {
    ...(receiver
      ? {
          listen: read(env, 'CONFORMANCE_WEBHOOK_LISTEN'),
          publicUrl: read(env, 'CONFORMANCE_WEBHOOK_PUBLIC_URL'),
        }
      : {}),
    waitSeconds: read(env, 'CONFORMANCE_WEBHOOK_WAIT_S'),
    signature: signatureScheme(env),
  };
}
