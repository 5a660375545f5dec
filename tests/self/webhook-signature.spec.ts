// The webhook certification helper: src/http/webhook-signature.ts and the verify-webhook command
// (src/cli/verify-webhook.ts), including its exit codes and that it never prints the secret; both signature
// schemes (the raw body; a timestamp header's value followed by the body) as the configuration states them,
// on what the sandbox sends (plain, and its variant timestamped-webhook-signatures).
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signWebhookBody } from '../../sandbox/webhooks.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { signatureScheme } from '../../src/config/webhook-settings.ts';
import { deliveryHeader, startWebhookReceiver } from '../../src/http/webhook-receiver.ts';
import {
  DEFAULT_SIGNATURE_SCHEME,
  type SignatureScheme,
  type SignedRequest,
  signatureProblem,
  signedMessage,
  signWebhook,
  verifyWebhook,
} from '../../src/http/webhook-signature.ts';
import { cli } from '../../src/runner/run/run-step.ts';
import { DELIVERY_WAIT_MS } from './safety-nets.ts';
import { credentials, start } from './sandbox-client.ts';

const secret = 'partner-signing-secret-for-tests-7d1e';
const body = JSON.stringify({
  type: 'service_request.status_updated',
  id: '5b4c1e9a-2f0d-4d1b-9a59-0b6f0c1c2d3e',
  requisition_id: '0e0f5d84-9d1a-4c1e-8c55-3f9a1b2c3d4e',
  task_business_status: 'SAMPLE_COLLECTED',
});
const hexSignature = createHmac('sha256', secret).update(body).digest('hex');

test.describe('signWebhook', () => {
  test('is the hex HMAC-SHA256 of the raw body by default, as the sandbox signs', () => {
    expect(signWebhook(body, secret)).toBe(hexSignature);
    expect(signWebhook(body, secret)).toBe(signWebhookBody(body, secret));
  });

  test('takes another algorithm and encoding', () => {
    expect(signWebhook(body, secret, 'sha512', 'base64')).toBe(
      createHmac('sha512', secret).update(body).digest('base64'),
    );
  });

  test('refuses an unknown algorithm', () => {
    expect(() => signWebhook(body, secret, 'sha-9000')).toThrow(/unknown HMAC algorithm/);
  });
});

test.describe('verifyWebhook', () => {
  test('accepts the signature of the body, bare or with a sha256= prefix, in either hex case', () => {
    expect(verifyWebhook(body, hexSignature, secret)).toBe(true);
    expect(verifyWebhook(body, `sha256=${hexSignature}`, secret)).toBe(true);
    expect(verifyWebhook(body, hexSignature.toUpperCase(), secret)).toBe(true);
    expect(verifyWebhook(Buffer.from(body), ` ${hexSignature} `, secret)).toBe(true);
  });

  test('refuses a tampered body', () => {
    expect(verifyWebhook(`${body} `, hexSignature, secret)).toBe(false);
    expect(verifyWebhook(body.replace('SAMPLE_COLLECTED', 'SAMPLE_REJECTED'), hexSignature, secret)).toBe(
      false,
    );
  });

  test('refuses a signature made with another secret', () => {
    expect(verifyWebhook(body, signWebhook(body, `${secret}-x`), secret)).toBe(false);
  });

  test('refuses a missing, empty, truncated or malformed header', () => {
    expect(verifyWebhook(body, undefined, secret)).toBe(false);
    expect(verifyWebhook(body, '', secret)).toBe(false);
    expect(verifyWebhook(body, hexSignature.slice(0, -2), secret)).toBe(false);
    expect(verifyWebhook(body, `${hexSignature}0`, secret)).toBe(false);
    expect(verifyWebhook(body, `z${hexSignature.slice(1)}`, secret)).toBe(false);
    expect(verifyWebhook(body, `sha512=${hexSignature}`, secret)).toBe(false);
  });

  test('checks other algorithms and the base64 encoding when told to', () => {
    const sha512 = signWebhook(body, secret, 'sha512', 'base64');
    expect(verifyWebhook(body, sha512, secret, { algorithm: 'sha512', encoding: 'base64' })).toBe(true);
    expect(verifyWebhook(body, `sha512=${sha512}`, secret, { algorithm: 'sha512', encoding: 'base64' })).toBe(
      true,
    );
    expect(verifyWebhook(body, sha512, secret)).toBe(false);
    expect(verifyWebhook(body, sha512, secret, { algorithm: 'sha512' })).toBe(false);
    const base64url = sha512.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    expect(verifyWebhook(body, base64url, secret, { algorithm: 'sha512', encoding: 'base64' })).toBe(true);
    expect(verifyWebhook(body, hexSignature, secret, { encoding: 'base64' })).toBe(false);
  });

  test('throws for an unknown algorithm instead of calling every signature invalid', () => {
    expect(() => verifyWebhook(body, hexSignature, secret, { algorithm: 'md17' })).toThrow(/unknown HMAC/);
  });
});

test.describe('verify-webhook command', () => {
  const run = (args: string[], input: string, env: Record<string, string> = { SIGNING_SECRET: secret }) => {
    const result = spawnSync(...cli('verify-webhook', ...args), {
      input,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  test('exits 0 for a valid signature and never prints the secret', () => {
    const { status, output } = run(['--secret-env', 'SIGNING_SECRET', '--signature', hexSignature], body);
    expect(status, output).toBe(0);
    expect(output).toMatch(/^valid/);
    expect(output).not.toContain(secret);
  });

  test('exits 1 for a tampered body or a wrong secret, without printing the secret', () => {
    const tampered = run(['--secret-env', 'SIGNING_SECRET', '--signature', hexSignature], `${body}\n`);
    expect(tampered.status, tampered.output).toBe(1);
    expect(tampered.output).toMatch(/^invalid/);
    const wrong = run(['--secret-env', 'SIGNING_SECRET', '--signature', hexSignature], body, {
      SIGNING_SECRET: `${secret}-other`,
    });
    expect(wrong.status, wrong.output).toBe(1);
    expect(`${tampered.output}${wrong.output}`).not.toContain(secret);
  });

  test('checks another algorithm and encoding', () => {
    const signature = signWebhook(body, secret, 'sha384', 'base64');
    const args = ['--secret-env', 'SIGNING_SECRET', '--signature', signature, '--algorithm', 'sha384'];
    expect(run([...args, '--encoding', 'base64'], body).status).toBe(0);
    expect(run(args, body).status).toBe(1);
  });

  test('exits 2 on usage errors: no secret variable, unset variable, unknown encoding or algorithm', () => {
    expect(run(['--signature', hexSignature], body).status).toBe(2);
    expect(run(['--secret-env', 'NOT_SET_ANYWHERE_4242', '--signature', hexSignature], body).status).toBe(2);
    expect(
      run(['--secret-env', 'SIGNING_SECRET', '--signature', hexSignature, '--encoding', 'b32'], body).status,
    ).toBe(2);
    const unknown = run(
      ['--secret-env', 'SIGNING_SECRET', '--signature', hexSignature, '--algorithm', 'md17'],
      body,
    );
    expect(unknown.status).toBe(2);
    expect(unknown.output).not.toContain(secret);
  });
});

// ---------------------------------------------------------------- the scheme as configuration
const timestamped: SignatureScheme = {
  ...DEFAULT_SIGNATURE_SCHEME,
  timestampHeader: 'Service-Timestamp',
  configured: true,
};
const requestOf = (headers: Record<string, string>, raw = body): SignedRequest => ({
  header: (name) => headers[name.toLowerCase()],
  body: Buffer.from(raw),
});

test.describe('signature scheme', () => {
  test('the configuration: defaults, each variable, and an unknown algorithm or encoding named', () => {
    expect(signatureScheme({})).toEqual(DEFAULT_SIGNATURE_SCHEME);
    expect(
      signatureScheme({
        CONFORMANCE_SIGNATURE_HEADER: 'X-Signature',
        CONFORMANCE_SIGNATURE_ALGORITHM: 'SHA512',
        CONFORMANCE_SIGNATURE_ENCODING: 'base64',
        CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: 'X-Timestamp',
      }),
    ).toEqual({
      header: 'X-Signature',
      algorithm: 'sha512',
      encoding: 'base64',
      timestampHeader: 'X-Timestamp',
      configured: true,
    });
    expect(() => signatureScheme({ CONFORMANCE_SIGNATURE_ALGORITHM: 'md17' })).toThrow(ConfigError);
    expect(() => signatureScheme({ CONFORMANCE_SIGNATURE_ENCODING: 'b32' })).toThrow(
      /CONFORMANCE_SIGNATURE_ENCODING/,
    );
  });

  test('the timestamp scheme signs the header value followed by the body, and nothing else verifies', () => {
    const timestamp = '1767225600';
    const signature = signWebhook(`${timestamp}${body}`, secret);
    const sent = { 'service-signed': signature, 'service-timestamp': timestamp };
    expect(signedMessage(body, timestamp).toString()).toBe(`${timestamp}${body}`);
    expect(signatureProblem(requestOf(sent), secret, timestamped)).toBeUndefined();
    expect(
      signatureProblem(requestOf({ ...sent, 'service-timestamp': '1767225601' }), secret, timestamped),
    ).toBe('Service-Signed is not the hex HMAC-sha256 of Service-Timestamp followed by the raw body');
    expect(signatureProblem(requestOf({ 'service-signed': signature }), secret, timestamped)).toMatch(
      /no Service-Timestamp header/,
    );
    expect(signatureProblem(requestOf(sent), secret, DEFAULT_SIGNATURE_SCHEME)).toMatch(/of the raw body$/);
    expect(
      signatureProblem(requestOf({ 'service-signed': hexSignature }), secret, DEFAULT_SIGNATURE_SCHEME),
    ).toBe(undefined);
    expect(signatureProblem(requestOf({}), secret, DEFAULT_SIGNATURE_SCHEME)).toBe(
      'no Service-Signed header',
    );
  });

  for (const variants of [[], ['timestamped-webhook-signatures']]) {
    test(`what the sandbox sends verifies under its scheme only (variants: ${variants.join() || 'none'})`, async () => {
      const receiver = await startWebhookReceiver();
      const sandbox = await start({ variants });
      try {
        const { clientId, clientSecret } = credentials.client;
        await fetch(`${sandbox.authUrl}/sandbox/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ owner: clientId, url: receiver.url }),
        });
        const info = await (await fetch(`${sandbox.authUrl}/sandbox/info`)).json();
        await fetch(`${sandbox.authUrl}/sandbox/users/${info.users[0].user_id}/events`, { method: 'POST' });
        const [delivery] = await receiver.waitFor(() => true, DELIVERY_WAIT_MS);
        if (!delivery) throw new Error('no webhook arrived');
        const sent: SignedRequest = { header: (name) => deliveryHeader(delivery, name), body: delivery.body };
        const [own, other] = variants.length
          ? [timestamped, DEFAULT_SIGNATURE_SCHEME]
          : [DEFAULT_SIGNATURE_SCHEME, timestamped];
        expect(signatureProblem(sent, clientSecret, own)).toBeUndefined();
        expect(signatureProblem(sent, clientSecret, other)).toBeDefined();
        expect(deliveryHeader(delivery, 'Service-Timestamp') !== undefined).toBe(variants.length > 0);
      } finally {
        await sandbox.close();
        await receiver.close();
      }
    });
  }
});

test.describe("verify-webhook command, configured by the suite's variables", () => {
  const timestamp = '1767225600';
  const signature = signWebhook(`${timestamp}${body}`, secret, 'sha256', 'base64');
  const scheme = {
    CONFORMANCE_ENV_FILE: undefined,
    CONFORMANCE_SIGNATURE_TIMESTAMP_HEADER: 'Service-Timestamp',
    CONFORMANCE_SIGNATURE_ENCODING: 'base64',
    SIGNING_SECRET: secret,
  };
  const run = (args: string[], env: NodeJS.ProcessEnv = scheme) => {
    const result = spawnSync(
      ...cli('verify-webhook', '--secret-env', 'SIGNING_SECRET', '--signature', signature, ...args),
      {
        input: body,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  test('checks the timestamp scheme of the configuration, with the timestamp given', () => {
    const valid = run(['--timestamp', timestamp]);
    expect(valid.status, valid.output).toBe(0);
    expect(valid.output).toMatch(
      /^valid: the base64 HMAC-sha256 of Service-Timestamp followed by the raw body/,
    );
    expect(valid.output).not.toContain(secret);
    expect(run(['--timestamp', '1767225601']).status).toBe(1);
    expect(run(['--timestamp', timestamp, '--encoding', 'hex']).status).toBe(1);
  });

  test('exits 2 when the configured scheme signs a timestamp and none is given', () => {
    const missing = run([]);
    expect(missing.status).toBe(2);
    expect(missing.output).toMatch(/--timestamp/);
  });

  test('without the scheme configured, the body alone is checked', () => {
    const plain = { CONFORMANCE_ENV_FILE: undefined, SIGNING_SECRET: secret };
    expect(run(['--timestamp', timestamp, '--encoding', 'base64'], plain).status).toBe(0);
    expect(run(['--encoding', 'base64'], plain).status).toBe(1);
  });
});
