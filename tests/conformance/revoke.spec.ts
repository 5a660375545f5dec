// DELETE /v2/user/access "revokes the access granted by the user. If the OAuth client receives webhooks,
// it no longer receives them for this user." (OP-REVOKE-ACCESS, REVOKE-TOKENS, SCOPE-REVOKE-ANY,
// REVOKE-WEBHOOKS-STOP). Every test revokes a grant minted for it alone; revocation ends every token of
// that user for this OAuth client, so the tests run on user B when a second user is configured (user A's
// cached tokens stay valid for the rest of the run), isolated and after everything else.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SuiteConfig } from '../../src/config/config.ts';
import { Tags } from '../../src/config/profiles.ts';
import type { ApiClient } from '../../src/http/api-client.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { ALL_READ_SCOPES, test, type UserName } from '../../src/suite/fixtures.ts';
import {
  describeOperation,
  type KnownIds,
  knownIds,
  needsIds,
  requestFor,
  userDataOperations,
} from '../../src/suite/user-operations.ts';
import {
  ConformanceFailure,
  expectNo5xx,
  expectNone,
  expectStatus,
  expectThat,
} from '../../src/suite/verdicts.ts';

const TAGS = [Tags.isolated, Tags.destructive, Tags.write];

/** DELETE /v2/user/access, from the catalogue: the user-data operation that is not a read. */
const revoke = (() => {
  const found = userDataOperations.find((op) => !op.readOnly && op.security.kind === 'user');
  if (!found) throw new Error('the catalogue has no user-data write operation (DELETE /v2/user/access)');
  return found;
})();

/** The user whose grants these tests revoke: B when configured, so that user A's tokens stay valid. */
function revokedUser(config: SuiteConfig): UserName {
  return config.capabilities.has('second-user') ? 'B' : 'A';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const succeeded = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

async function revokeWith(api: ApiClient, token: string): Promise<Exchange> {
  return api.send({ ...requestFor(revoke), token });
}

test(`OP-REVOKE-ACCESS: ${describeOperation(revoke)} answers ${revoke.successStatus} with an empty body`, {
  tag: ['@OP-REVOKE-ACCESS', ...TAGS],
}, async ({ api, config, tokenPool, requires, note }) => {
  requires('stateful', 'user-login');
  const user = revokedUser(config);
  if (user === 'A') note('OP-REVOKE-ACCESS', "no second user configured: user A's grant was revoked");
  const grant = await tokenPool.fresh(ALL_READ_SCOPES, user);
  const exchange = await revokeWith(api, grant.accessToken);
  expectStatus('OP-REVOKE-ACCESS', exchange, revoke.successStatus);
  expectThat(
    'OP-REVOKE-ACCESS',
    exchange.text === '',
    `the ${exchange.status} carries a body (${exchange.text.slice(0, 200)})`,
    exchange,
  );
});

test(`REVOKE-TOKENS: after ${describeOperation(revoke)} the grant's token gets 401 on every user-data operation`, {
  tag: ['@REVOKE-TOKENS', ...TAGS],
}, async ({ api, config, tokenPool, requires, note }) => {
  requires('stateful', 'real-auth', 'user-login');
  const user = revokedUser(config);
  const grant = await tokenPool.fresh(ALL_READ_SCOPES, user);
  const other = await tokenPool.fresh(ALL_READ_SCOPES, user);
  // The user's own ids, read while the grant is valid: every request below is otherwise a valid one.
  const ids: KnownIds = await knownIds(api, grant.accessToken);
  const reads = userDataOperations.filter((op) => op.readOnly);
  const probe = reads.find((op) => op.security.kind === 'user' && !needsIds(op)) ?? reads[0];
  if (!probe) throw new Error('the catalogue has no user-data read');
  expectStatus('REVOKE-TOKENS', await api.send({ ...requestFor(probe, ids), token: grant.accessToken }), 200);

  const revoked = await revokeWith(api, grant.accessToken);
  expectThat(
    'REVOKE-TOKENS',
    succeeded(revoked),
    `the revocation itself failed (${revoked.status})`,
    revoked,
  );

  const problems: string[] = [];
  for (const op of userDataOperations) {
    const exchange = await api.send({ ...requestFor(op, ids), token: grant.accessToken });
    if (op.security.kind !== 'user') {
      expectNo5xx('REVOKE-TOKENS', exchange);
      note(
        'AUTH-UNDECLARED-SECURITY',
        `${describeOperation(op)} with a revoked token answered ${exchange.status} (security not shown by the seed)`,
      );
    } else if (exchange.status !== 401) {
      problems.push(`${describeOperation(op)} answered ${exchange.status} to the revoked token, not 401`);
    }
  }
  expectNone('REVOKE-TOKENS', problems);

  // "Revokes the access granted by the user": another token of the same user and client, observed.
  const otherRead = await api.send({ ...requestFor(probe, ids), token: other.accessToken });
  expectNo5xx('REVOKE-TOKENS', otherRead);
  note(
    'REVOKE-TOKENS',
    `another token of user ${user} for the same client answered ${otherRead.status} on ${describeOperation(probe)} after the revocation (${otherRead.status === 401 ? 'revoked with the grant' : 'still valid'})`,
  );
});

for (const scope of ALL_READ_SCOPES) {
  test(`SCOPE-REVOKE-ANY: ${describeOperation(revoke)} is served to a token holding only ${scope}`, {
    tag: ['@SCOPE-REVOKE-ANY', ...TAGS],
  }, async ({ api, config, tokenPool, requires }) => {
    requires('stateful', 'user-login', 'scopes');
    const grant = await tokenPool.fresh([scope], revokedUser(config));
    const exchange = await revokeWith(api, grant.accessToken);
    expectThat(
      'SCOPE-REVOKE-ANY',
      succeeded(exchange),
      `a token holding only ${scope} was refused (${exchange.status}); the operation requires OAuth with no scope`,
      exchange,
    );
  });
}

/** A local HTTP endpoint that records the webhooks it receives. */
async function startReceiver(): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= until) return false;
    await sleep(50);
  }
  return true;
}

test(`REVOKE-WEBHOOKS-STOP: after ${describeOperation(revoke)} the OAuth client receives no more webhooks for the user`, {
  tag: ['@REVOKE-WEBHOOKS-STOP', ...TAGS],
}, async ({ api, config, tokenPool, requires }) => {
  requires('stateful', 'user-login', 'webhooks');
  const login = config.userLogin;
  if (!login) throw new Error('unreachable: user-login capability without userLogin');
  const user = revokedUser(config);
  const username = user === 'B' ? config.secondUser?.username : login.username;
  // Sandbox administration (sandbox/admin.ts): webhook registrations and simulated user events.
  const admin = `${config.authUrl}/sandbox`;
  const owner = login.clientId;

  const info = await api.send({ path: `${admin}/info` });
  expectStatus('REVOKE-WEBHOOKS-STOP', info, 200);
  const userId = info
    .json<{ users?: { user_id: number; username: string }[] }>()
    .users?.find((candidate) => candidate.username.toLowerCase() === username?.toLowerCase())?.user_id;
  if (userId === undefined) throw new Error(`the sandbox lists no user ${username}`);
  const registered = await api.send({ path: `${admin}/webhooks`, query: { owner } });
  const previous = registered.status === 200 ? (registered.json<{ urls?: string[] }>().urls ?? []) : [];
  const receiver = await startReceiver();
  const trigger = async () => {
    const event = await api.send({ method: 'POST', path: `${admin}/users/${userId}/events`, json: {} });
    if (!succeeded(event)) throw new Error(`the sandbox did not simulate a user event (${event.status})`);
  };

  try {
    const registration = await api.send({
      method: 'POST',
      path: `${admin}/webhooks`,
      json: { owner, url: receiver.url },
    });
    if (!succeeded(registration)) throw new Error(`webhook registration failed (${registration.status})`);
    // A grant of the user's (granting access again also resumes webhooks after an earlier revocation).
    const grant = await tokenPool.fresh(['read:profile'], user);

    await trigger();
    if (!(await waitFor(() => receiver.received.length > 0, 5_000))) {
      throw new ConformanceFailure(
        'REVOKE-WEBHOOKS-STOP',
        `no webhook arrived within 5 s for user ${userId} before the revocation, so its stopping cannot be observed`,
      );
    }

    const revoked = await revokeWith(api, grant.accessToken);
    expectThat(
      'REVOKE-WEBHOOKS-STOP',
      succeeded(revoked),
      `the revocation itself failed (${revoked.status})`,
      revoked,
    );
    await sleep(300); // let deliveries of the first event still in flight land
    const before = receiver.received.length;
    await trigger();
    await waitFor(() => receiver.received.length > before, 2_000);
    const late = receiver.received.slice(before);
    expectThat(
      'REVOKE-WEBHOOKS-STOP',
      late.length === 0,
      `${late.length} webhook(s) for user ${userId} arrived after the revocation: ${late[0]?.slice(0, 200)}`,
    );
  } finally {
    // Leave the registrations as they were, and the user's access granted again.
    await api.send({ method: 'DELETE', path: `${admin}/webhooks`, query: { owner } });
    for (const url of previous) {
      await api.send({ method: 'POST', path: `${admin}/webhooks`, json: { owner, url } });
    }
    await receiver.close();
    await tokenPool.fresh(['read:profile'], user).catch(() => undefined);
  }
});
