// Partner webhooks (seed §Events, §Authentication › Partner API step 5): webhook requests carry the header
// Service-Signed, checked with the partner's signing secret. The algorithm, what is signed, the event types
// and the payload are not shown: the suite checks the signature as configured (default HMAC-SHA256 of the
// raw body, hex; CONFORMANCE_SIGNATURE_ALGORITHM) and records what it observed.
//
// Needs the sandbox administration API to register a receiver ('webhooks' capability): a local HTTP server
// is registered for partner A, a status update on a generated requisition causes the events.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Tags } from '../../src/config/profiles.ts';
import { buildPath, operationById } from '../../src/contract/operations.ts';
import { test } from '../../src/suite/fixtures.ts';
import {
  generateRequisition,
  registerWebhookReceiver,
  removeWebhookReceivers,
  serviceRequestIdsOf,
  uniqueStatus,
} from '../../src/suite/partner-data.ts';
import { expectNone, expectThat } from '../../src/suite/verdicts.ts';
import { SIGNATURE_HEADER, verifyWebhook } from '../../src/webhooks/signature.ts';

interface Delivery {
  receivedAt: number;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local webhook receiver: records every request and answers 200. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({
        receivedAt: Date.now(),
        method: request.method ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(200).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/partner`,
    deliveries,
    /** Resolves with the matching deliveries once there is one, or with none after `timeoutMs`. */
    async waitFor(matches: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery[]> {
      const found = () => deliveries.filter(matches);
      if (found().length > 0) return found();
      const deadline = Date.now() + timeoutMs;
      return new Promise((resolve) => {
        const done = () => {
          if (found().length === 0 && Date.now() < deadline) return;
          clearTimeout(timer);
          waiters.delete(done);
          resolve(found());
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

const DELIVERY_TIMEOUT_MS = 5000;

test('WH-SIGNED: partner webhooks carry a Service-Signed header that verifies with the partner signing secret', {
  tag: [
    '@WH-SIGNED',
    '@WH-EVENT-TYPES',
    '@WH-PAYLOAD',
    '@WH-SIGNATURE-ALGORITHM',
    Tags.partner,
    Tags.nonProduction,
    Tags.write,
  ],
}, async ({ api, config, partnerA, requires, note }) => {
  requires('webhooks');
  const secret = config.signingSecret;
  test.skip(!secret, 'no signing secret configured (CONFORMANCE_PARTNER_SIGNING_SECRET)');
  const algorithm = config.signatureAlgorithm;
  const owner = partnerA.credentials.clientId;
  const receiver = await startReceiver();
  try {
    await registerWebhookReceiver(api, config, owner, receiver.url);
    const { id, requisition } = await generateRequisition(partnerA, note);
    const ids = [id, ...serviceRequestIdsOf(requisition)];
    const op = operationById('updateRequisitionStatus');
    const status = uniqueStatus('WEBHOOK');
    const update = await partnerA.send({
      method: op.method,
      path: buildPath(op, { id }),
      json: { task_business_status: status, reason: 'webhook conformance check' },
    });
    expectThat('WH-SIGNED', update.status >= 200 && update.status < 300, 'the status update failed', update);
    // Webhooks about this requisition (other tests' events for partner A reach the receiver too). The
    // payload is not specified: wait for one that names the new status, else take those naming the ids.
    const ours = (delivery: Delivery) => ids.some((value) => delivery.body.toString('utf8').includes(value));
    await receiver.waitFor(
      (delivery) => ours(delivery) && delivery.body.toString('utf8').includes(status),
      DELIVERY_TIMEOUT_MS,
    );
    const deliveries = receiver.deliveries.filter(ours);
    expectThat(
      'WH-SIGNED',
      deliveries.length > 0,
      `no webhook about requisition ${id} reached the registered receiver within ${DELIVERY_TIMEOUT_MS} ms of its status update`,
      update,
    );

    const payloads = deliveries.map((delivery) => {
      try {
        return JSON.parse(delivery.body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    });
    note(
      'WH-EVENT-TYPES',
      `event types observed: ${[...new Set(payloads.map((payload) => JSON.stringify(payload?.type) ?? 'no type field'))].join(', ')}`,
    );
    note(
      'WH-PAYLOAD',
      `payload fields observed: ${[...new Set(payloads.flatMap((payload) => (payload ? Object.keys(payload) : ['(not a JSON object)'])))].join(', ')}; content-type ${header(deliveries[0]?.headers ?? {}, 'content-type') ?? 'none'}`,
    );

    const problems: string[] = [];
    for (const [index, delivery] of deliveries.entries()) {
      const what = `webhook ${index + 1} (${delivery.method}, ${delivery.body.length} bytes)`;
      const signature = header(delivery.headers, SIGNATURE_HEADER);
      if (signature === undefined) {
        problems.push(`${what} has no ${SIGNATURE_HEADER} header`);
        continue;
      }
      if (!verifyWebhook(delivery.body, signature, secret as string, { algorithm })) {
        const base64 = verifyWebhook(delivery.body, signature, secret as string, {
          algorithm,
          encoding: 'base64',
        });
        problems.push(
          `${what}: ${SIGNATURE_HEADER} is not the hex HMAC-${algorithm} of the raw body under the partner's signing secret${base64 ? ' (it is the base64 one)' : ''}`,
        );
        continue;
      }
      const tampered = Buffer.concat([delivery.body, Buffer.from(' ')]);
      if (verifyWebhook(tampered, signature, secret as string, { algorithm }))
        problems.push(`${what}: the signature still verifies for a tampered body`);
    }
    const prefixed = deliveries.some((delivery) =>
      /^[a-z0-9-]+=/i.test(header(delivery.headers, SIGNATURE_HEADER) ?? ''),
    );
    note(
      'WH-SIGNATURE-ALGORITHM',
      problems.length === 0
        ? `${deliveries.length} webhook(s): ${SIGNATURE_HEADER} verified as HMAC-${algorithm} of the raw body, hex${prefixed ? ', with an algorithm= prefix' : ''}`
        : `${SIGNATURE_HEADER} did not verify as HMAC-${algorithm} of the raw body, hex (configured algorithm)`,
    );
    expectNone('WH-SIGNED', problems, update);
  } finally {
    await removeWebhookReceivers(api, config, owner);
    await receiver.close();
  }
});
