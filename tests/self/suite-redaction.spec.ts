// Credentials never leave the process: headers, bodies, URLs and curl lines are redacted.
import { expect, test } from '@playwright/test';
import { createExchange, curl, describeExchange, redactedRecord } from '../../src/http/exchange.ts';
import { redactHeaders, redactText, registerSecret } from '../../src/http/redact.ts';

test('bearer and basic credentials, secret JSON fields, form fields and query parameters are redacted', () => {
  expect(redactText('Authorization: Bearer abc.def-123')).toBe('Authorization: Bearer <redacted>');
  // A path that ends in a scheme's name is no credential.
  expect(redactText('GET http://t/v2/user/profile/basic → 403')).toBe(
    'GET http://t/v2/user/profile/basic → 403',
  );
  expect(redactText('{"access_token":"t0k3n","expires_in":3600}')).toBe(
    '{"access_token":"<redacted>","expires_in":3600}',
  );
  expect(redactText('grant_type=authorization_code&code=c0de&client_secret=s3cret')).toBe(
    'grant_type=authorization_code&code=<redacted>&client_secret=<redacted>',
  );
  expect(redactText('http://127.0.0.1/cb?code=xyz&state=abcdefgh')).toBe(
    'http://127.0.0.1/cb?code=<redacted>&state=abcdefgh',
  );
  expect(redactHeaders({ Authorization: 'Bearer x', cookie: 'a=b', accept: 'application/json' })).toEqual({
    Authorization: '<redacted>',
    cookie: '<redacted>',
    accept: 'application/json',
  });
});

test('registered secrets are redacted wherever they appear', () => {
  registerSecret('very-secret-password-42');
  expect(redactText('login failed for very-secret-password-42!')).toBe('login failed for <redacted>!');
});

test('curl reproductions and attachments carry no credential', () => {
  const exchange = createExchange(
    {
      method: 'POST',
      url: 'http://127.0.0.1/developer/v2/partner/token',
      headers: { authorization: 'Bearer t' },
      body: '{"client_secret":"s"}',
    },
    200,
    { 'content-type': 'application/json' },
    '{"access_token":"issued","token_type":"bearer"}',
  );
  const text = `${curl(exchange.request)}\n${describeExchange(exchange)}\n${JSON.stringify(redactedRecord(exchange))}`;
  expect(text).not.toMatch(/Bearer t'|"s"|issued/);
  expect(curl(exchange.request)).toContain(`curl -i -X POST 'http://127.0.0.1/developer/v2/partner/token'`);
});
