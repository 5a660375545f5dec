// The webhook certification helper: src/webhooks/signature.ts and the verify-webhook command
// (src/cli/verify-webhook.ts), including its exit codes and that it never prints the secret.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signWebhookBody } from '../../sandbox/webhooks.ts';
import { signWebhook, verifyWebhook } from '../../src/webhooks/signature.ts';

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
  const cli = fileURLToPath(new URL('../../src/cli/verify-webhook.ts', import.meta.url));
  const run = (args: string[], input: string, env: Record<string, string> = { SIGNING_SECRET: secret }) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
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
