// Partner webhooks (seed §Events, §Authentication › Partner API step 5): webhook requests carry the header
// Service-Signed, checked with the partner's signing secret. The algorithm, what is signed, the event types
// and the payload are not shown: the suite checks the signature as configured (default HMAC-SHA256 of the
// raw body, hex; CONFORMANCE_SIGNATURE_ALGORITHM) and records what it observed.
//
// Needs the sandbox administration API to register a receiver ('webhooks' capability): a local HTTP server
// (src/suite/webhook-receiver.ts) is registered for partner A, a status update on a generated requisition
// causes the events; for user-data webhooks one is registered for the OAuth client and the sandbox simulates
// a change of user A's data (src/suite/sandbox-admin.ts).
import { Tags } from '../../src/config/profiles.ts';
import { operationById } from '../../src/contract/operations.ts';
import { buildPath } from '../../src/contract/request-paths.ts';
import { serviceRequestIdsOf, uniqueStatus, workingRequisition } from '../../src/suite/partner-data.ts';
import {
  listWebhookReceivers,
  registerWebhookReceiver,
  removeWebhookReceivers,
  restoreWebhookReceivers,
  sandboxUserId,
  triggerUserEvent,
} from '../../src/suite/sandbox-admin.ts';
import { test } from '../../src/suite/test.ts';
import { note, notVerified } from '../../src/suite/verdicts.ts';
import { verifies } from '../../src/suite/verifies.ts';
import {
  type Delivery,
  deliveryHeader,
  deliveryText,
  startWebhookReceiver,
} from '../../src/suite/webhook-receiver.ts';
import { SIGNATURE_HEADER, verifyWebhook } from '../../src/webhooks/signature.ts';

const DELIVERY_TIMEOUT_MS = 5000;

/** The deliveries' Service-Signed headers; a delivery without one is a problem of WH-SIGNED. */
function signaturesOf(deliveries: readonly Delivery[]): {
  signed: { what: string; delivery: Delivery; signature: string }[];
  problems: string[];
} {
  const signed: { what: string; delivery: Delivery; signature: string }[] = [];
  const problems: string[] = [];
  for (const [index, delivery] of deliveries.entries()) {
    const what = `webhook ${index + 1} (${delivery.method}, ${delivery.body.length} bytes)`;
    const signature = deliveryHeader(delivery, SIGNATURE_HEADER);
    if (signature === undefined) problems.push(`${what} has no ${SIGNATURE_HEADER} header`);
    else signed.push({ what, delivery, signature });
  }
  return { signed, problems };
}

// What the seed does not show (event types, payload, signature algorithm): the tests record what they observe.
const EVENT_TYPES = 'WH-EVENT-TYPES';
const PAYLOAD = 'WH-PAYLOAD';
const SIGNATURE_ALGORITHM = 'WH-SIGNATURE-ALGORITHM';

test(
  ...verifies(
    'WH-SIGNED',
    'partner webhooks carry a Service-Signed header that verifies with the partner signing secret',
    {
      also: [EVENT_TYPES, PAYLOAD, SIGNATURE_ALGORITHM],
      tag: [Tags.partner, Tags.nonProduction, Tags.write],
    },
  ),
  async ({ api, config, partnerA, requires, verdict }) => {
    requires('webhooks');
    const secret = config.signingSecret;
    if (!secret) notVerified('no signing secret configured (CONFORMANCE_PARTNER_SIGNING_SECRET)');
    const algorithm = config.signatureAlgorithm;
    const owner = partnerA.credentials.clientId;
    const receiver = await startWebhookReceiver('/webhooks/partner');
    try {
      await registerWebhookReceiver(api, config, owner, receiver.url);
      const { id, requisition } = await workingRequisition(config, partnerA);
      const ids = [id, ...serviceRequestIdsOf(requisition)];
      const op = operationById('updateRequisitionStatus');
      const status = uniqueStatus('WEBHOOK');
      const update = await partnerA.send({
        method: op.method,
        path: buildPath(op, { id }),
        json: { task_business_status: status, reason: 'webhook conformance check' },
      });
      verdict.expectThat(update.status >= 200 && update.status < 300, 'the status update failed', update);
      // Webhooks about this requisition (other tests' events for partner A reach the receiver too). The
      // payload is not specified: wait for one that names the new status, else take those naming the ids.
      const ours = (delivery: Delivery) => ids.some((value) => deliveryText(delivery).includes(value));
      await receiver.waitFor(
        (delivery) => ours(delivery) && deliveryText(delivery).includes(status),
        DELIVERY_TIMEOUT_MS,
      );
      const deliveries = receiver.deliveries.filter(ours);
      verdict.expectThat(
        deliveries.length > 0,
        `no webhook about requisition ${id} reached the registered receiver within ${DELIVERY_TIMEOUT_MS} ms of its status update`,
        update,
      );

      const payloads = deliveries.map((delivery) => {
        try {
          return JSON.parse(deliveryText(delivery)) as Record<string, unknown>;
        } catch {
          return undefined;
        }
      });
      note(
        EVENT_TYPES,
        `event types observed: ${[...new Set(payloads.map((payload) => JSON.stringify(payload?.type) ?? 'no type field'))].join(', ')}`,
      );
      note(
        PAYLOAD,
        `payload fields observed: ${[...new Set(payloads.flatMap((payload) => (payload ? Object.keys(payload) : ['(not a JSON object)'])))].join(', ')}; content-type ${(deliveries[0] && deliveryHeader(deliveries[0], 'content-type')) ?? 'none'}`,
      );

      // The header is stated; how it is computed is not ("The signature algorithm and what is signed: not
      // shown"): a signature that does not verify under the configured scheme is a warning.
      const { signed, problems } = signaturesOf(deliveries);
      const departures: string[] = [];
      for (const { what, delivery, signature } of signed) {
        if (!verifyWebhook(delivery.body, signature, secret, { algorithm })) {
          const base64 = verifyWebhook(delivery.body, signature, secret, {
            algorithm,
            encoding: 'base64',
          });
          departures.push(
            `${what}: ${SIGNATURE_HEADER} is not the hex HMAC-${algorithm} of the raw body under the partner's signing secret${base64 ? ' (it is the base64 one)' : ''}`,
          );
          continue;
        }
        const tampered = Buffer.concat([delivery.body, Buffer.from(' ')]);
        if (verifyWebhook(tampered, signature, secret, { algorithm }))
          departures.push(`${what}: the signature still verifies for a tampered body`);
      }
      for (const departure of departures) verdict.warn(departure);
      const prefixed = deliveries.some((delivery) =>
        /^[a-z0-9-]+=/i.test(deliveryHeader(delivery, SIGNATURE_HEADER) ?? ''),
      );
      note(
        SIGNATURE_ALGORITHM,
        departures.length === 0
          ? `${deliveries.length} webhook(s): ${SIGNATURE_HEADER} verified as HMAC-${algorithm} of the raw body, hex${prefixed ? ', with an algorithm= prefix' : ''}`
          : `${SIGNATURE_HEADER} did not verify as HMAC-${algorithm} of the raw body, hex (configured algorithm)`,
      );
      verdict.expectNone(problems, update);
      verdict.evidence(`${deliveries.length} partner webhook(s) carried ${SIGNATURE_HEADER}`);
    } finally {
      await removeWebhookReceivers(api, config, owner);
      await receiver.close();
    }
  },
);

// User-data webhooks (seed §Events: "the service sends webhooks to a registered OAuth client"): every webhook
// request carries Service-Signed. Which secret signs the OAuth client's webhooks is not shown (the seed only
// names the partner's signing secret): the check against the OAuth client secret is recorded as a note.
test(
  ...verifies('WH-SIGNED', 'user-data webhooks to the OAuth client carry a Service-Signed header', {
    also: [SIGNATURE_ALGORITHM],
    tag: [Tags.nonProduction, Tags.write],
  }),
  async ({ api, config, requires, verdict }) => {
    requires('webhooks', 'user-login');
    const login = config.userLogin;
    if (!login) throw new Error('unreachable: user-login capability without userLogin');
    const algorithm = config.signatureAlgorithm;
    const owner = login.clientId;
    const userId = await sandboxUserId(api, config, login.username);
    const previous = await listWebhookReceivers(api, config, owner);
    const receiver = await startWebhookReceiver('/webhooks/user');
    try {
      await registerWebhookReceiver(api, config, owner, receiver.url);
      const { event, sent_to: sentTo } = await triggerUserEvent(api, config, userId);
      // Other events for the OAuth client may reach the receiver too: this test's carry its event's trace id.
      const deliveries = await receiver.waitFor(
        (delivery) => deliveryText(delivery).includes(event.trace_id),
        DELIVERY_TIMEOUT_MS,
      );
      verdict.expectThat(
        deliveries.length > 0,
        `no webhook about the ${event.type} event of user ${userId} reached the receiver registered for the OAuth client within ${DELIVERY_TIMEOUT_MS} ms (the sandbox reports it sent the event to: ${sentTo.join(', ') || 'no client'})`,
      );

      const { signed, problems } = signaturesOf(deliveries);
      const verdicts: string[] = [];
      for (const { what, delivery, signature } of signed) {
        const encoding = (['hex', 'base64'] as const).find((candidate) =>
          verifyWebhook(delivery.body, signature, login.clientSecret, { algorithm, encoding: candidate }),
        );
        verdicts.push(
          encoding
            ? `${what}: verified as HMAC-${algorithm} of the raw body under the OAuth client secret, ${encoding}`
            : `${what}: did not verify as HMAC-${algorithm} of the raw body under the OAuth client secret`,
        );
      }
      note(
        SIGNATURE_ALGORITHM,
        verdicts.length > 0
          ? `user-data webhooks (which secret signs them is not shown): ${verdicts.join('; ')}`
          : `user-data webhooks: no ${SIGNATURE_HEADER} header to verify`,
      );
      verdict.expectNone(problems);
    } finally {
      // Leave the OAuth client's registrations as they were.
      await restoreWebhookReceivers(api, config, owner, previous);
      await receiver.close();
    }
  },
);
