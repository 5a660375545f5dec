// Webhooks (seed §Events, §Authentication › Partner API step 5): webhook requests carry the header
// Service-Signed, checked with the partner's signing secret. The algorithm, what is signed, the event types
// and the payload are not shown: the suite checks the signature under the configured scheme (default the
// hex HMAC-SHA256 of the raw body; CONFORMANCE_SIGNATURE_*) and records what it observed. A signature
// that does not verify is a warning under the default scheme (the suite's reading), a failure under a
// scheme the team configured.
//
// Needs a receiver the target delivers to ('webhooks', src/worker/partner-data/webhook-inbox.ts): on the embedded sandbox
// one per check, registered through its administration API; elsewhere the run's receiver, which the team
// registered (CONFORMANCE_WEBHOOK_PUBLIC_URL). Partner webhooks follow the generation of a requisition (one
// of the check's own, so that its creation is announced while the receiver listens) and its status update;
// user-data webhooks follow a change of user A's data (simulated by the sandbox; on another target, the
// user's own activity: the seed gives a client no way to cause one).
import {
  aboutUser,
  buildPath,
  type Delivery,
  deliveryHeader,
  deliveryText,
  describeScheme,
  type Exchange,
  jsonOf,
  operationById,
  PARTNER_WRITE_TAGS,
  type PartnerClient,
  type PartnerData,
  type SignatureScheme,
  type SuiteConfig,
  serviceRequestIdsOf,
  signatureDepartures,
  Tags,
  test,
  uniqueStatus,
  unsignedProblems,
  userIdOf,
  type Verdict,
  verifies,
  type WebhookInbox,
} from '../../src/worker/suite/index.ts';

/** The configured wait for a webhook, in milliseconds. */
const waitMs = (config: SuiteConfig) => config.webhooks.waitSeconds * 1000;

// What the seed does not show (event types, payload, signature algorithm): the tests record what they observe.
const EVENT_TYPES = 'WH-EVENT-TYPES';
const PAYLOAD = 'WH-PAYLOAD';
const SIGNATURE_ALGORITHM = 'WH-SIGNATURE-ALGORITHM';

/** The fixtures the partner check's steps take. */
interface PartnerFixtures {
  config: SuiteConfig;
  partnerA: PartnerClient;
  partnerData: PartnerData;
  verdict: Verdict;
}

/**
 * A fresh requisition's status update, and the webhooks about it (other tests' events for partner A reach
 * the receiver too). The payload is not specified: wait for one that names the new status, else take those
 * naming the ids. None is not verified where the receiver is the team's, a failure on the sandbox.
 */
async function afterStatusUpdate(
  { config, partnerA, partnerData, verdict }: PartnerFixtures,
  inbox: WebhookInbox,
) {
  const { id, requisition } = await partnerData.freshRequisition();
  const ids = [id, ...serviceRequestIdsOf(requisition)];
  const op = operationById('updateRequisitionStatus');
  const status = uniqueStatus('WEBHOOK');
  const update = await partnerA.send({
    method: op.method,
    path: buildPath(op, { id }),
    json: { task_business_status: status, reason: 'webhook conformance check' },
  });
  verdict.expectSuccess(update, 'the status update');
  const ours = (delivery: Delivery) => ids.some((value) => deliveryText(delivery).includes(value));
  await inbox.waitFor(
    (delivery) => ours(delivery) && deliveryText(delivery).includes(status),
    waitMs(config),
  );
  const deliveries = inbox.deliveries().filter(ours);
  const within = `within ${config.webhooks.waitSeconds} s of its status update`;
  if (deliveries.length === 0 && !config.capabilities.has('sandbox-admin'))
    verdict.notVerified(
      `no webhook about requisition ${id} reached the receiver (CONFORMANCE_WEBHOOK_PUBLIC_URL) ${within}; which changes the service announces is not shown`,
    );
  verdict.expectThat(
    deliveries.length > 0,
    `no webhook about requisition ${id} reached the registered receiver ${within}`,
    update,
  );
  return { update, deliveries };
}

/** What the seed does not show of the deliveries: their event types and payload fields, as notes. */
function notePayloads(verdict: Verdict, deliveries: readonly Delivery[]) {
  const payloads = deliveries.map((delivery) => {
    const payload = jsonOf(deliveryText(delivery));
    return payload.ok ? (payload.value as Record<string, unknown>) : undefined;
  });
  verdict
    .of(EVENT_TYPES)
    .note(
      `event types observed: ${[...new Set(payloads.map((payload) => JSON.stringify(payload?.type) ?? 'no type field'))].join(', ')}`,
    );
  verdict
    .of(PAYLOAD)
    .note(
      `payload fields observed: ${[...new Set(payloads.flatMap((payload) => (payload ? Object.keys(payload) : ['(not a JSON object)'])))].join(', ')}; content-type ${(deliveries[0] && deliveryHeader(deliveries[0], 'content-type')) ?? 'none'}`,
    );
}

/**
 * The header is stated; how it is computed is not ("The signature algorithm and what is signed: not
 * shown"): under the suite's default reading a departure is a warning, under the team's scheme a failure.
 */
function judgeSignatures(
  verdict: Verdict,
  deliveries: readonly Delivery[],
  { secret, scheme, update }: { secret: string; scheme: SignatureScheme; update: Exchange },
) {
  const departures = signatureDepartures(deliveries, secret, scheme);
  if (scheme.configured) verdict.expectNone(departures, update);
  else for (const departure of departures) verdict.warn(departure);
  const prefixed = deliveries.some((delivery) =>
    /^[a-z0-9-]+=/i.test(deliveryHeader(delivery, scheme.header) ?? ''),
  );
  verdict
    .of(SIGNATURE_ALGORITHM)
    .note(
      departures.length === 0
        ? `${deliveries.length} webhook(s): ${scheme.header} verified as ${describeScheme(scheme)}${prefixed ? ', with an algorithm= prefix' : ''}`
        : `${scheme.header} did not verify as ${describeScheme(scheme)} (${scheme.configured ? 'configured' : 'default'} scheme)`,
    );
}

test(
  ...verifies(
    'WH-SIGNED',
    'partner webhooks carry a Service-Signed header that verifies with the partner signing secret',
    {
      also: [EVENT_TYPES, PAYLOAD, SIGNATURE_ALGORITHM],
      tag: PARTNER_WRITE_TAGS,
      needs: ['webhooks'],
    },
  ),
  async ({ config, inbox: openInbox, partnerA, partnerData, verdict }) => {
    const secret = config.signingSecret;
    if (!secret)
      return verdict.notVerified('no signing secret configured (CONFORMANCE_PARTNER_A_SIGNING_SECRET)');
    const inbox = await openInbox(partnerA.credentials.clientId, '/webhooks/partner');
    const { update, deliveries } = await afterStatusUpdate({ config, partnerA, partnerData, verdict }, inbox);
    notePayloads(verdict, deliveries);
    judgeSignatures(verdict, deliveries, { secret, scheme: config.webhooks.signature, update });
    verdict.expectNone(unsignedProblems(deliveries, config.webhooks.signature), update);
    verdict.evidence(`${deliveries.length} partner webhook(s) carried ${config.webhooks.signature.header}`);
  },
);

// User-data webhooks (seed §Events: "the service sends webhooks to a registered OAuth client"): every webhook
// request carries Service-Signed. Which secret signs the OAuth client's webhooks is not shown (the seed only
// names the partner's signing secret): the check against the OAuth client secret is recorded as a note.
test(
  ...verifies('WH-SIGNED', 'user-data webhooks to the OAuth client carry a Service-Signed header', {
    also: [SIGNATURE_ALGORITHM],
    tag: [Tags.nonProduction, Tags.write],
    needs: ['webhooks', 'user-login'],
  }),
  async ({ api, config, inbox: openInbox, userToken, verdict }) => {
    const login = config.userLogin;
    if (!login) throw new Error('unreachable: user-login capability without userLogin');
    const scheme = config.webhooks.signature;
    const userId = await userIdOf(api, await userToken(['read:profile']));
    const inbox = await openInbox(login.clientId, '/webhooks/user');
    await inbox.changeUserData(userId);
    const deliveries = await inbox.waitFor(aboutUser(userId), waitMs(config));
    const missing = `no webhook naming user A (user_id ${userId}) reached the receiver registered for the OAuth client within ${config.webhooks.waitSeconds} s`;
    if (deliveries.length === 0 && !config.capabilities.has('sandbox-admin'))
      verdict.notVerified(
        `${missing}: the seed gives a client no way to cause one; they come when the user's data changes (docs/sign-in.md, "Webhooks")`,
      );
    verdict.expectThat(deliveries.length > 0, `${missing} of a change of the user's data`);

    const signed = deliveries.filter((delivery) => deliveryHeader(delivery, scheme.header) !== undefined);
    const departures = signatureDepartures(signed, login.clientSecret, scheme);
    verdict
      .of(SIGNATURE_ALGORITHM)
      .note(
        `user-data webhooks (which secret signs them is not shown): ${signed.length - departures.length} of ${signed.length} signed one(s) verified as ${describeScheme(scheme)} under the OAuth client secret${departures.length ? `; ${departures.join('; ')}` : ''}`,
      );
    verdict.expectNone(unsignedProblems(deliveries, scheme));
    verdict.evidence(
      `${deliveries.length} user-data webhook(s) about user ${userId} carried ${scheme.header}`,
    );
  },
);
