// Webhook deliveries judged under a signature scheme (src/checks/webhook-signatures.ts): "Webhook requests
// carry the header Service-Signed, checked with the partner's signing secret" (WH-SIGNED), under the
// scheme's reading (the hex HMAC-SHA256 of the raw body by default, or as configured).
import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signatureDepartures, unsignedProblems } from '../../src/checks/webhook-signatures.ts';
import type { Delivery } from '../../src/http/webhook-receiver.ts';
import { DEFAULT_SIGNATURE_SCHEME, type SignatureScheme } from '../../src/http/webhook-signature.ts';

const secret = 'partner-signing-secret-for-tests-7d1e';
const body = Buffer.from('{"type":"service_request.status_updated","task_business_status":"RESULTS_READY"}');
const hmac = (message: Buffer, key = secret) => createHmac('sha256', key).update(message);

const delivery = (headers: Record<string, string>): Delivery => ({
  receivedAt: 0,
  method: 'POST',
  path: '/webhooks/partner',
  headers,
  body,
});
const name = (index: number) => `webhook ${index} (POST, ${body.length} bytes)`;

const signed = delivery({ 'service-signed': hmac(body).digest('hex') });
const prefixed = delivery({ 'service-signed': `sha256=${hmac(body).digest('hex')}` });
const unsigned = delivery({ 'content-type': 'application/json' });

test('deliveries signed as the scheme says, bare or prefixed, depart from nothing and are all signed', () => {
  expect(signatureDepartures([signed, prefixed], secret, DEFAULT_SIGNATURE_SCHEME)).toEqual([]);
  expect(unsignedProblems([signed, prefixed], DEFAULT_SIGNATURE_SCHEME)).toEqual([]);
});

test('a delivery without Service-Signed is unsigned, named by its place; its signature is not judged', () => {
  expect(unsignedProblems([signed, unsigned], DEFAULT_SIGNATURE_SCHEME)).toEqual([
    `${name(2)} has no Service-Signed header`,
  ]);
  expect(signatureDepartures([signed, unsigned], secret, DEFAULT_SIGNATURE_SCHEME)).toEqual([]);
});

test('a signature under another secret departs from the scheme', () => {
  const wrong = delivery({ 'service-signed': hmac(body, 'another-secret').digest('hex') });
  expect(signatureDepartures([wrong], secret, DEFAULT_SIGNATURE_SCHEME)).toEqual([
    `${name(1)}: Service-Signed is not the hex HMAC-sha256 of the raw body under the signing secret`,
  ]);
});

test('a signature in the other encoding departs, with a hint that it is that one', () => {
  const base64 = delivery({ 'service-signed': hmac(body).digest('base64') });
  expect(signatureDepartures([base64], secret, DEFAULT_SIGNATURE_SCHEME)).toEqual([
    `${name(1)}: Service-Signed is not the hex HMAC-sha256 of the raw body under the signing secret (it is the base64 one)`,
  ]);
});

test('under a scheme signing a timestamp header before the body: signed so is none, without the header departs', () => {
  const scheme: SignatureScheme = {
    ...DEFAULT_SIGNATURE_SCHEME,
    timestampHeader: 'Service-Timestamp',
    configured: true,
  };
  const timestamp = '1773568817';
  const signature = hmac(Buffer.concat([Buffer.from(timestamp), body])).digest('hex');
  const stamped = delivery({ 'service-signed': signature, 'service-timestamp': timestamp });
  expect(signatureDepartures([stamped], secret, scheme)).toEqual([]);
  const [departure, ...others] = signatureDepartures(
    [delivery({ 'service-signed': signature })],
    secret,
    scheme,
  );
  expect(others).toEqual([]);
  expect(departure).toContain(`${name(1)}: no Service-Timestamp header (the signed timestamp)`);
});
