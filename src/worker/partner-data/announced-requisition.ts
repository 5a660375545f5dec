// The requisition a webhook announced after add-test-data answered 204 naming none (no Location). The seed
// shows no event type or payload, so a delivery names a requisition by a `requisition_id` member at any
// depth; what it names counts only if partner A reads it and it was created no earlier than the 204 was
// sent (by the server's own clock: the answer's Date header). Read from the run's webhook log, where the
// team registered the run's receiver ('webhooks' without 'sandbox-admin', src/worker/partner-data/webhook-inbox.ts),
// waiting at most the configured webhook wait. Two such requisitions (generations racing in other workers)
// cannot be told apart: none is taken.
import type { SuiteConfig } from '../../config/suite-config.ts';
import { operationById } from '../../contract/operations.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import { type Delivery, deliveryText } from '../../http/webhook-receiver.ts';
import { extendTestTimeout } from '../session/run-waits.ts';
import { Verdict } from '../verdict/verdicts.ts';
import { openWebhookInbox } from './webhook-inbox.ts';

/** The verdicts of a read of a named requisition (a body that is not JSON fails OP-JSON-BODIES). */
const READ = new Verdict(successRequirement(operationById('getRequisition')));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The uuids a JSON value holds in `requisition_id` members, at any depth. */
function requisitionIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(requisitionIds);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key === 'requisition_id' && typeof member === 'string' && UUID.test(member)
      ? [member]
      : requisitionIds(member),
  );
}

/** The requisitions a delivery names (none when its body is not JSON). */
function named(delivery: Delivery): string[] {
  try {
    return requisitionIds(JSON.parse(deliveryText(delivery)));
  } catch {
    return [];
  }
}

/** Whether the run reads webhooks from its own log, where a delivery needs no registration of the check's. */
export const readsRunWebhookLog = (config: SuiteConfig): boolean =>
  config.capabilities.has('webhooks') && !config.capabilities.has('sandbox-admin');

/**
 * The requisition a webhook announced as the one `generated` (add-test-data's 204) made, if exactly one
 * qualifies; `read` GETs a requisition as partner A.
 */
export async function announcedRequisition(
  generated: Exchange,
  config: SuiteConfig,
  api: ApiClient,
  owner: string,
  read: (id: string) => Promise<Exchange>,
): Promise<string | undefined> {
  const sent = Date.parse(generated.timing?.startedAt ?? '') || Date.now();
  // Date has a resolution of a second: a requisition created in the second the answer was dated counts.
  const dated = Date.parse(generated.headers.date ?? '');
  const notBefore = Number.isNaN(dated) ? sent : dated - 1000;
  const waitMs = config.webhooks.waitSeconds * 1000;
  const deadline = Date.now() + waitMs;
  extendTestTimeout(waitMs);
  const inbox = await openWebhookInbox(api, config, owner, '/webhooks');
  const examined = new Set<string>();
  const found: string[] = [];
  try {
    while (found.length === 0 && Date.now() < deadline) {
      const unexamined = (delivery: Delivery) =>
        delivery.receivedAt >= sent && named(delivery).some((id) => !examined.has(id));
      const ids = (await inbox.waitFor(unexamined, deadline - Date.now()))
        .flatMap(named)
        .filter((id) => !examined.has(id));
      if (ids.length === 0) break;
      for (const id of new Set(ids)) {
        examined.add(id);
        const answer = await read(id);
        const created =
          answer.status === 200
            ? Date.parse(String(READ.json<{ created_at?: unknown } | null>(answer)?.created_at))
            : NaN;
        if (created >= notBefore) found.push(id);
      }
    }
  } finally {
    await inbox.close();
  }
  return found.length === 1 ? found[0] : undefined;
}
