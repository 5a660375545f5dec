// Where a webhook check finds the webhooks the target sent, and how it makes the target send one.
// - The embedded sandbox ('sandbox-admin'): the check starts its own receiver, registers it for the owner
//   through the administration API (and restores the owner's registrations afterwards), and simulates
//   changes of a user's data.
// - Any other target ('webhooks' without 'sandbox-admin'): the team registered the run's receiver
//   (CONFORMANCE_WEBHOOK_PUBLIC_URL) with the service; the check reads the run's webhook log. The seed
//   gives a client no way to cause a user-data webhook ("The event types: not shown"), so those come when
//   the test user's data changes (a real user's device; the remote run's sandbox, --user-activity); partner
//   webhooks follow the partner's own writes, where the service sends them.
import type { SuiteConfig } from '../../config/suite-config.ts';
import { operationById } from '../../contract/operations.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import { exchangeLine } from '../../http/exchange.ts';
import {
  type Delivery,
  deliveryText,
  readDeliveryLog,
  runWebhookLog,
  startWebhookReceiver,
  waitForDeliveries,
} from '../../http/webhook-receiver.ts';
import { notVerified } from '../verdict/stops.ts';
import { Verdict } from '../verdict/verdicts.ts';
import {
  listWebhookReceivers,
  registerWebhookReceiver,
  restoreWebhookReceivers,
  triggerUserEvent,
} from './sandbox-admin.ts';

export interface WebhookInbox {
  /** Every delivery so far. */
  deliveries(): Delivery[];
  /** The matching deliveries as soon as there is one, else whatever matches after `timeoutMs`. */
  waitFor(matches: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery[]>;
  /**
   * Makes the target send a webhook about a change of the user's data, where the suite can (the sandbox's
   * administration API); elsewhere the webhooks come from the user's own activity, and this does nothing.
   */
  changeUserData(userId: number): Promise<void>;
  close(): Promise<void>;
}

/** How often a check reads the run's webhook log while it waits. */
const LOG_POLL_MS = 100;

function runLogInbox(): WebhookInbox {
  const file = runWebhookLog();
  return {
    deliveries: () => readDeliveryLog(file),
    waitFor: (matches, timeoutMs) =>
      waitForDeliveries(
        () => readDeliveryLog(file),
        (onDelivery) => {
          const timer = setInterval(onDelivery, LOG_POLL_MS);
          return () => clearInterval(timer);
        },
        matches,
        timeoutMs,
      ),
    changeUserData: async () => {},
    close: async () => {},
  };
}

/** The webhooks `owner` (an OAuth client id or a partner client id) receives, for one check. */
export async function openWebhookInbox(
  api: ApiClient,
  config: SuiteConfig,
  owner: string,
  path: string,
): Promise<WebhookInbox> {
  if (!config.capabilities.has('sandbox-admin')) return runLogInbox();
  const previous = await listWebhookReceivers(api, config, owner);
  const receiver = await startWebhookReceiver({ path });
  try {
    await registerWebhookReceiver(api, config, owner, receiver.url);
  } catch (error) {
    await receiver.close();
    throw error;
  }
  return {
    deliveries: () => [...receiver.deliveries],
    waitFor: receiver.waitFor,
    changeUserData: async (userId) => {
      await triggerUserEvent(api, config, userId);
    },
    close: async () => {
      await restoreWebhookReceivers(api, config, owner, previous);
      await receiver.close();
    },
  };
}

/**
 * The user_id of a token's user, from GET /v2/user/profile/basic (the token needs read:profile), in a check: a
 * 5xx fails the operation, a body that is not JSON OP-JSON-BODIES; a profile that names no user_id (its fields
 * are not all required) or is not served leaves the check not verified.
 */
export async function userIdOf(api: ApiClient, token: string): Promise<number> {
  const op = operationById('getBasicProfile');
  const exchange = await api.send({ path: buildPath(op), token });
  const answer = new Verdict(successRequirement(op));
  answer.expectNo5xx(exchange);
  const userId =
    exchange.status === 200 ? answer.json<{ user_id?: unknown } | null>(exchange)?.user_id : undefined;
  if (typeof userId !== 'number')
    notVerified(
      `the basic profile names no user_id, so no webhook can be told to be the user's (${exchangeLine(exchange)})`,
    );
  return userId;
}

/** Whether a JSON value holds a `user_id` member equal to `userId`, at any depth. */
function namesUser(value: unknown, userId: number): boolean {
  if (Array.isArray(value)) return value.some((item) => namesUser(item, userId));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(
    ([key, member]) => (key === 'user_id' && Number(member) === userId) || namesUser(member, userId),
  );
}

/**
 * Whether a delivery is about the user: its JSON body names the user's id (the user_id of the basic
 * profile) in a user_id member. The payload is not shown by the seed; the sandbox's events carry user_id.
 */
export function aboutUser(userId: number): (delivery: Delivery) => boolean {
  return (delivery) => {
    try {
      return namesUser(JSON.parse(deliveryText(delivery)), userId);
    } catch {
      return false;
    }
  };
}
