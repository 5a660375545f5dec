// Registers the credentials a recorded exchange carries as secrets (src/http/redact.ts), so nothing
// written from the recording shows them: bearer and basic credentials, cookies, tokens issued in
// responses, secrets in form or JSON request bodies.
import { registerIssuedTokens, registerSecret } from '../http/redact.ts';
import type { RecordedExchange } from './recorded-exchange.ts';

/** Cookie values shorter than this are not treated as secrets (they would redact ordinary words). */
const MIN_COOKIE_SECRET = 12;
const SECRET_PARAMS =
  /(?:^|[&\s{,])"?(?:client_secret|password|refresh_token|access_token|code|token)"?\s*[=:]\s*"?([^&"\s,}]+)/gi;

export function registerRecordedSecrets(exchange: RecordedExchange): void {
  for (const name of ['authorization', 'proxy-authorization']) {
    const value = exchange.requestHeaders[name];
    if (!value) continue;
    const credential = value.replace(/^\s*\w+\s+/, '').trim();
    registerSecret(credential);
    if (/^basic\s/i.test(value)) {
      const [, password] = /:(.+)$/.exec(Buffer.from(credential, 'base64').toString('utf8')) ?? [];
      registerSecret(password);
    }
  }
  for (const header of [exchange.requestHeaders.cookie, exchange.responseHeaders['set-cookie']]) {
    for (const pair of header?.split(/[;,]\s*/) ?? []) {
      const value = pair.slice(pair.indexOf('=') + 1);
      if (pair.includes('=') && value.length >= MIN_COOKIE_SECRET) registerSecret(value);
    }
  }
  for (const match of (exchange.requestBody ?? '').matchAll(SECRET_PARAMS)) registerSecret(match[1]);
  if (exchange.body) registerIssuedTokens(exchange.body);
}
