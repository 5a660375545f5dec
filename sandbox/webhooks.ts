// Webhook delivery. The seed says webhook requests carry the header Service-Signed, checked with the
// receiver's signing secret; the algorithm and what is signed are not shown. The sandbox signs like this:
//
//   body            = JSON.stringify(event)            (the exact bytes sent)
//   Service-Signed  = hex( HMAC-SHA256(key = signing secret, message = body) )
//
// Under the variant timestamped-webhook-signatures, the scheme of many real services (replay protection):
//
//   Service-Timestamp = unix time in seconds, as text
//   Service-Signed    = hex( HMAC-SHA256(key = signing secret, message = Service-Timestamp + body) )
//
// Signing secrets: a partner's signing secret (CONFORMANCE_PARTNER_*SIGNING_SECRET) for partner webhooks,
// the OAuth client's client secret for user-data webhooks. Delivery is fire-and-forget (POST with fetch,
// 5 s timeout); failures are logged when request logging is on and never reach the caller. Sent without a
// signing secret (fault webhook-signature-missing), a webhook carries no Service-Signed header.
import { createHmac } from 'node:crypto';
import type { WebhookSender } from './context.ts';

export const signatureHeader = 'service-signed';
export const timestampHeader = 'service-timestamp';

/** The signature of a body (preceded by its timestamp, when the timestamped scheme is on). */
export function signWebhookBody(body: string, signingSecret: string, timestamp = ''): string {
  return createHmac('sha256', signingSecret).update(`${timestamp}${body}`).digest('hex');
}

export interface WebhookSenderOptions {
  /** Called on a failed delivery (network error or non-2xx answer). */
  onError?: (url: string, reason: string) => void;
  fetch?: typeof fetch;
  /** Sign a Service-Timestamp header's value followed by the body (variant timestamped-webhook-signatures). */
  timestamped?: boolean;
  now?: () => Date;
}

/** The signature headers of a body: none without a secret. */
function signatureHeaders(
  body: string,
  signingSecret: string | undefined,
  timestamp: string | undefined,
): Record<string, string> {
  if (signingSecret === undefined) return {};
  if (timestamp === undefined) return { [signatureHeader]: signWebhookBody(body, signingSecret) };
  return { [timestampHeader]: timestamp, [signatureHeader]: signWebhookBody(body, signingSecret, timestamp) };
}

export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const registrations = new Map<string, Set<string>>();
  const doFetch = options.fetch ?? fetch;
  const report = options.onError ?? (() => {});
  const now = options.now ?? (() => new Date());

  const deliver = (url: string, body: string, signed: Record<string, string>): void => {
    doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed },
      body,
      signal: AbortSignal.timeout(5000),
    })
      .then((response) => {
        if (!response.ok) report(url, `HTTP ${response.status}`);
        return response.body?.cancel();
      })
      .catch((error: unknown) => report(url, error instanceof Error ? error.message : String(error)));
  };

  return {
    send(owner, signingSecret, event) {
      const urls = registrations.get(owner);
      if (!urls || urls.size === 0) return;
      const body = JSON.stringify(event);
      const timestamp = options.timestamped ? String(Math.floor(now().getTime() / 1000)) : undefined;
      const signed = signatureHeaders(body, signingSecret, timestamp);
      for (const url of urls) {
        try {
          deliver(url, body, signed);
        } catch (error) {
          report(url, error instanceof Error ? error.message : String(error));
        }
      }
    },
    register(owner, url) {
      const urls = registrations.get(owner) ?? new Set<string>();
      urls.add(url);
      registrations.set(owner, urls);
    },
    unregister(owner) {
      registrations.delete(owner);
    },
    urls(owner) {
      return [...(registrations.get(owner) ?? [])];
    },
  };
}
