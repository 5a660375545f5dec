// The run's webhook receiver, on any target but the embedded sandbox: global setup starts it on
// CONFORMANCE_WEBHOOK_LISTEN, the team registered CONFORMANCE_WEBHOOK_PUBLIC_URL (which reaches it) with the
// service, and every worker's checks read its log (src/worker/partner-data/webhook-inbox.ts).
import type { SuiteConfig } from '../../config/suite-config.ts';
import { runWebhookLog, startWebhookReceiver } from '../../http/webhook-receiver.ts';

/**
 * Global setup: the run's receiver on CONFORMANCE_WEBHOOK_LISTEN, logging to runWebhookLog(), when the
 * target is not the embedded sandbox and a receiver is configured. Returns its stop, or undefined.
 */
export async function startRunWebhookReceiver(
  config: SuiteConfig,
): Promise<(() => Promise<void>) | undefined> {
  const { listen } = config.webhooks;
  if (config.capabilities.has('sandbox-admin') || !listen) return undefined;
  const receiver = await startWebhookReceiver({ ...listen, log: runWebhookLog() });
  return receiver.close;
}
