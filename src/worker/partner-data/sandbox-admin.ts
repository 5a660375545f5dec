// Every call the suite makes to the embedded sandbox's administration API (sandbox-only, not the contract's:
// sandbox/admin.ts, sandbox/partner/admin-routes.ts; the routes are listed in docs/sandbox.md), used only on
// a target with the 'sandbox-admin' capability. The /sandbox routes live beside /developer, the partner
// inspection routes under the base URL. An answer other than the documented one throws, naming the exchange.
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { ApiClient } from '../../http/api-client.ts';
import { bodyOf, describeExchange, type Exchange } from '../../http/exchange.ts';

/** The URL of a sandbox administration path (`/sandbox/...`, beside `/developer`). */
export const sandboxAdminUrl = (config: SuiteConfig, path: string): string =>
  `${new URL(config.baseUrl).origin}${path}`;

/**
 * An administration answer other than the documented one. The administration API is the sandbox's, the
 * project's own code, never the contract's: its failure is the suite's error, to report to its maintainers.
 */
export class SandboxAdminFailure extends Error {
  constructor(what: string, exchange: Exchange) {
    super(`sandbox administration did not ${what}: ${describeExchange(exchange)}`);
    this.name = 'SandboxAdminFailure';
  }
}

/** The body of the administration's answer to `what`, which must have `expected` status and a JSON body. */
function adminBody<T>(exchange: Exchange, expected: number, what: string): T {
  const body = bodyOf<T>(exchange);
  if (exchange.status !== expected || !body.ok) throw new SandboxAdminFailure(what, exchange);
  return body.value;
}

function expectAdmin(exchange: Exchange, expected: number, what: string): void {
  if (exchange.status !== expected) throw new SandboxAdminFailure(what, exchange);
}

// ------------------------------------------------------------------------------------ user events

export interface UserEvent {
  type: string;
  user_id: number;
  id: string | number | null;
  trace_id: string;
}

/**
 * Simulates a change of a user's data: the sandbox sends the event as a webhook to every OAuth client with
 * a registered receiver (except those the user revoked). Returns the event and the clients it went to.
 */
export async function triggerUserEvent(
  api: ApiClient,
  config: SuiteConfig,
  userId: number,
  event: { type?: string; id?: string | number } = {},
): Promise<{ event: UserEvent; sent_to: string[] }> {
  const exchange = await api.send({
    method: 'POST',
    path: sandboxAdminUrl(config, `/sandbox/users/${userId}/events`),
    json: event,
  });
  return adminBody(exchange, 202, `simulate an event of user ${userId}`);
}

// ------------------------------------------------------------------------------------ webhook receivers

/** The receiver URLs registered for an owner (an OAuth client id or a partner client id). */
export async function listWebhookReceivers(
  api: ApiClient,
  config: SuiteConfig,
  owner: string,
): Promise<string[]> {
  const exchange = await api.send({ path: sandboxAdminUrl(config, '/sandbox/webhooks'), query: { owner } });
  return adminBody<{ urls?: string[] }>(exchange, 200, 'list the receivers').urls ?? [];
}

/** Registers a webhook receiver URL for an owner (an OAuth client id or a partner client id). */
export async function registerWebhookReceiver(
  api: ApiClient,
  config: SuiteConfig,
  owner: string,
  url: string,
): Promise<void> {
  const exchange = await api.send({
    method: 'POST',
    path: sandboxAdminUrl(config, '/sandbox/webhooks'),
    json: { owner, url },
  });
  expectAdmin(exchange, 201, 'register the receiver');
}

/** Removes every receiver of an owner (best effort: for clean-ups, the answer is not checked). */
async function removeWebhookReceivers(api: ApiClient, config: SuiteConfig, owner: string): Promise<void> {
  await api.send({
    method: 'DELETE',
    path: sandboxAdminUrl(config, '/sandbox/webhooks'),
    query: { owner },
  });
}

/**
 * Leaves an owner with exactly the receivers `urls` (those listed before a test registered its own):
 * removes every receiver, then registers `urls` again. Best effort, for clean-ups: answers are not checked.
 */
export async function restoreWebhookReceivers(
  api: ApiClient,
  config: SuiteConfig,
  owner: string,
  urls: readonly string[],
): Promise<void> {
  await removeWebhookReceivers(api, config, owner);
  for (const url of urls) {
    await api.send({
      method: 'POST',
      path: sandboxAdminUrl(config, '/sandbox/webhooks'),
      json: { owner, url },
    });
  }
}

// ------------------------------------------------------------------------------------ partner data

/** Ids of every requisition the sandbox holds for a partner (its seeded data included). */
export async function sandboxRequisitionIds(
  api: ApiClient,
  config: SuiteConfig,
  clientId: string,
): Promise<string[]> {
  const exchange = await api.send({
    path: `${config.baseUrl}/sandbox/partners/${encodeURIComponent(clientId)}/requisitions`,
  });
  const body = adminBody<{ requisitions?: { id: string }[] }>(exchange, 200, 'list the requisitions');
  return (body.requisitions ?? []).map((requisition) => requisition.id);
}
