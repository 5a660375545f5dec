// DELETE /v2/user/access "revokes the access granted by the user. If the OAuth client receives webhooks,
// it no longer receives them for this user." (OP-REVOKE-ACCESS, REVOKE-TOKENS, SCOPE-REVOKE-ANY,
// REVOKE-WEBHOOKS-STOP). Every test revokes a grant minted for it alone; revocation ends every token of
// that user for this OAuth client, so the tests run on user B when a second user is configured (user A's
// cached tokens stay valid for the rest of the run), isolated and after everything else.
import type { SuiteConfig } from '../../src/config/config.ts';
import { Tags } from '../../src/config/profiles.ts';
import type { ApiClient } from '../../src/http/api-client.ts';
import type { Exchange } from '../../src/http/exchange.ts';
import { ALL_READ_SCOPES, type UserName } from '../../src/suite/fixtures.ts';
import {
  listWebhookReceivers,
  registerWebhookReceiver,
  restoreWebhookReceivers,
  sandboxUserId,
  triggerUserEvent,
} from '../../src/suite/sandbox-admin.ts';
import { test } from '../../src/suite/test.ts';
import {
  describeOperation,
  type KnownIds,
  needsIds,
  requestFor,
  userDataOperations,
} from '../../src/suite/user-catalogue.ts';
import { ConformanceFailure, note } from '../../src/suite/verdicts.ts';
import { verifies } from '../../src/suite/verifies.ts';
import { deliveryText, startWebhookReceiver } from '../../src/suite/webhook-receiver.ts';

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

test(
  ...verifies(
    'OP-REVOKE-ACCESS',
    `${describeOperation(revoke)} answers ${revoke.successStatus} with an empty body`,
    {
      tag: TAGS,
    },
  ),
  async ({ api, config, tokenPool, requires, verdict }) => {
    requires('stateful', 'user-login');
    const user = revokedUser(config);
    if (user === 'A') verdict.note("no second user configured: user A's grant was revoked");
    const grant = await tokenPool.fresh(ALL_READ_SCOPES, user);
    const exchange = await revokeWith(api, grant.accessToken);
    verdict.expectStatus(exchange, revoke.successStatus);
    verdict.expectThat(
      exchange.text === '',
      `the ${exchange.status} carries a body (${exchange.text.slice(0, 200)})`,
      exchange,
    );
  },
);

test(
  ...verifies(
    'REVOKE-TOKENS',
    `after ${describeOperation(revoke)} the grant's token gets 401 on every user-data operation`,
    { tag: TAGS },
  ),
  async ({ api, dataset, config, tokenPool, requires, verdict }) => {
    requires('stateful', 'real-auth', 'user-login');
    const user = revokedUser(config);
    const grant = await tokenPool.fresh(ALL_READ_SCOPES, user);
    const other = await tokenPool.fresh(ALL_READ_SCOPES, user);
    // The user's own ids, read while the grant is valid: every request below is otherwise a valid one.
    const ids: KnownIds = await dataset.knownIds(grant.accessToken);
    const reads = userDataOperations.filter((op) => op.readOnly);
    const probe = reads.find((op) => op.security.kind === 'user' && !needsIds(op)) ?? reads[0];
    if (!probe) throw new Error('the catalogue has no user-data read');
    verdict.expectStatus(await api.send({ ...requestFor(probe, ids), token: grant.accessToken }), 200);

    const revoked = await revokeWith(api, grant.accessToken);
    verdict.expectThat(succeeded(revoked), `the revocation itself failed (${revoked.status})`, revoked);

    const problems: string[] = [];
    for (const op of userDataOperations) {
      const exchange = await api.send({ ...requestFor(op, ids), token: grant.accessToken });
      if (op.security.kind !== 'user') {
        verdict.expectNo5xx(exchange);
        note(
          'AUTH-UNDECLARED-SECURITY',
          `${describeOperation(op)} with a revoked token answered ${exchange.status} (security not shown by the seed)`,
        );
      } else if (exchange.status !== 401) {
        problems.push(`${describeOperation(op)} answered ${exchange.status} to the revoked token, not 401`);
      }
    }
    verdict.expectNone(problems);

    // "Revokes the access granted by the user": another token of the same user and client, observed.
    const otherRead = await api.send({ ...requestFor(probe, ids), token: other.accessToken });
    verdict.expectNo5xx(otherRead);
    verdict.note(
      `another token of user ${user} for the same client answered ${otherRead.status} on ${describeOperation(probe)} after the revocation (${otherRead.status === 401 ? 'revoked with the grant' : 'still valid'})`,
    );
  },
);

for (const scope of ALL_READ_SCOPES) {
  test(
    ...verifies(
      'SCOPE-REVOKE-ANY',
      `${describeOperation(revoke)} is served to a token holding only ${scope}`,
      {
        tag: TAGS,
      },
    ),
    async ({ api, config, tokenPool, requires, verdict }) => {
      requires('stateful', 'user-login', 'scopes');
      const grant = await tokenPool.fresh([scope], revokedUser(config));
      const exchange = await revokeWith(api, grant.accessToken);
      verdict.expectThat(
        succeeded(exchange),
        `a token holding only ${scope} was refused (${exchange.status}); the operation requires OAuth with no scope`,
        exchange,
      );
    },
  );
}

test(
  ...verifies(
    'REVOKE-WEBHOOKS-STOP',
    `after ${describeOperation(revoke)} the OAuth client receives no more webhooks for the user`,
    { tag: TAGS },
  ),
  async ({ api, config, tokenPool, requires, verdict }) => {
    requires('stateful', 'user-login', 'webhooks');
    const login = config.userLogin;
    if (!login) throw new Error('unreachable: user-login capability without userLogin');
    const user = revokedUser(config);
    const username = user === 'B' ? config.secondUser?.username : login.username;
    if (username === undefined) throw new Error('unreachable: user B without a second user');
    // Sandbox administration (src/suite/sandbox-admin.ts): webhook registrations and simulated user events.
    const owner = login.clientId;
    const userId = await sandboxUserId(api, config, username);
    const previous = await listWebhookReceivers(api, config, owner);
    const receiver = await startWebhookReceiver();
    const trigger = () => triggerUserEvent(api, config, userId);

    try {
      await registerWebhookReceiver(api, config, owner, receiver.url);
      // A grant of the user's (granting access again also resumes webhooks after an earlier revocation).
      const grant = await tokenPool.fresh(['read:profile'], user);

      await trigger();
      if ((await receiver.waitFor(() => true, 5_000)).length === 0) {
        throw new ConformanceFailure(
          verdict.requirement,
          `no webhook arrived within 5 s for user ${userId} before the revocation, so its stopping cannot be observed`,
        );
      }

      const revoked = await revokeWith(api, grant.accessToken);
      verdict.expectThat(succeeded(revoked), `the revocation itself failed (${revoked.status})`, revoked);
      await sleep(300); // let deliveries of the first event still in flight land
      const earlier = new Set(receiver.deliveries);
      await trigger();
      const late = await receiver.waitFor((delivery) => !earlier.has(delivery), 2_000);
      verdict.expectThat(
        late.length === 0,
        `${late.length} webhook(s) for user ${userId} arrived after the revocation: ${late[0] ? deliveryText(late[0]).slice(0, 200) : ''}`,
      );
    } finally {
      // Leave the registrations as they were, and the user's access granted again.
      await restoreWebhookReceivers(api, config, owner, previous);
      await receiver.close();
      await tokenPool.fresh(['read:profile'], user).catch(() => undefined);
    }
  },
);
