// DELETE /v2/user/access "revokes the access granted by the user. If the OAuth client receives webhooks,
// it no longer receives them for this user." (OP-REVOKE-ACCESS, REVOKE-TOKENS, SCOPE-REVOKE-ANY,
// REVOKE-WEBHOOKS-STOP). Every test revokes a grant minted for it alone; revocation ends every token of
// that user for this OAuth client, so the tests run on user B when a second user is configured (user A's
// cached tokens stay valid for the rest of the run), isolated and after everything else.
import {
  ALL_READ_SCOPES,
  type ApiClient,
  aboutUser,
  attempt,
  type Delivery,
  deliveryText,
  describeOperation,
  type Exchange,
  type KnownIds,
  needsIds,
  requestFor,
  type SuiteConfig,
  successRequirement,
  Tags,
  test,
  type UserName,
  type UserTokenPool,
  userDataOperations,
  userIdOf,
  verifies,
} from '../../src/worker/suite/index.ts';

const TAGS = [Tags.isolated, Tags.destructive, Tags.write];
const UNDECLARED_SECURITY = 'AUTH-UNDECLARED-SECURITY';

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

/** Revokes the grant of `token`; once revoked, its token is sent as it is, never renewed (a new sign-in would grant access again). */
async function revokeWith(api: ApiClient, tokenPool: UserTokenPool, token: string): Promise<Exchange> {
  const exchange = await api.send({ ...requestFor(revoke), token });
  if (exchange.status < 300) await tokenPool.revoked(token);
  return exchange;
}

test(
  ...verifies(
    'OP-REVOKE-ACCESS',
    `${describeOperation(revoke)} answers ${revoke.successStatus} with an empty body`,
    {
      tag: TAGS,
      needs: ['stateful', 'user-login'],
    },
  ),
  async ({ api, config, freshToken, tokenPool, verdict }) => {
    const user = revokedUser(config);
    if (user === 'A') verdict.note("no second user configured: user A's grant was revoked");
    const grant = await freshToken(ALL_READ_SCOPES, user);
    const exchange = await revokeWith(api, tokenPool, grant.accessToken);
    verdict.expectStatus(exchange, revoke.successStatus);
    verdict.expectEmptyBody(exchange);
    verdict.evidence(`user ${user}'s grant revoked, no body`, { exchange });
  },
);

test(
  ...verifies(
    'REVOKE-TOKENS',
    `after ${describeOperation(revoke)} the grant's token gets 401 on every user-data operation`,
    { tag: TAGS, needs: ['stateful', 'real-auth', 'user-login'] },
  ),
  async ({ api, dataset, config, freshToken, tokenPool, verdict }) => {
    const undeclaredSecurity = verdict.of(UNDECLARED_SECURITY);
    const user = revokedUser(config);
    const grant = await freshToken(ALL_READ_SCOPES, user);
    const other = await freshToken(ALL_READ_SCOPES, user);
    // The user's own ids, read while the grant is valid: every request below is otherwise a valid one (not
    // verified before the revocation when the user's data cannot supply one).
    const ids: KnownIds = await dataset.knownIds(grant.accessToken);
    const requests = userDataOperations.map((op) => ({ op, request: requestFor(op, ids) }));
    const reads = userDataOperations.filter((op) => op.readOnly);
    const probe = reads.find((op) => op.security.kind === 'user' && !needsIds(op)) ?? reads[0];
    if (!probe) throw new Error('the catalogue has no user-data read');
    const served = await api.send({ ...requestFor(probe, ids), token: grant.accessToken });
    // A 5xx says nothing about the token: the operation failed (its own success requirement).
    verdict.of(successRequirement(probe)).expectNo5xx(served);
    verdict.expectStatus(served, 200);

    const revoked = await revokeWith(api, tokenPool, grant.accessToken);
    verdict.expectSuccess(revoked, 'the revocation itself');

    for (const { op, request } of requests) {
      const exchange = await api.send({ ...request, token: grant.accessToken });
      if (op.security.kind !== 'user') {
        verdict.expectNo5xx(exchange);
        undeclaredSecurity.note(
          `${describeOperation(op)} with a revoked token answered ${exchange.status} (security not shown by the seed)`,
        );
      } else if (exchange.status !== 401) {
        verdict.soft.fail(
          `${describeOperation(op)} answered ${exchange.status} to the revoked token, not 401`,
          exchange,
        );
      }
    }
    verdict.evidence(
      `the revoked token, served before, refused 401 on ${requests.filter(({ op }) => op.security.kind === 'user').length} operations`,
    );

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
        needs: ['stateful', 'user-login', 'scopes'],
      },
    ),
    async ({ api, config, freshToken, tokenPool, verdict }) => {
      const grant = await freshToken([scope], revokedUser(config));
      const exchange = await revokeWith(api, tokenPool, grant.accessToken);
      verdict.expectSuccess(
        exchange,
        `a token holding only ${scope} (the operation requires OAuth with no scope)`,
      );
      verdict.evidence(`served to a token holding only ${scope}`, { exchange });
    },
  );
}

// Checked against the webhooks the OAuth client receives (src/worker/partner-data/webhook-inbox.ts): a webhook for the user
// arrives before the revocation (on the sandbox after a simulated change of the user's data; elsewhere from
// the user's own activity), then none may arrive for the user from IN_FLIGHT_MS after the revocation
// answered until the stated wait (CONFORMANCE_WEBHOOK_WAIT_S) has passed.
const IN_FLIGHT_MS = 1000;

test(
  ...verifies(
    'REVOKE-WEBHOOKS-STOP',
    `after ${describeOperation(revoke)} the OAuth client receives no more webhooks for the user`,
    { tag: TAGS, needs: ['stateful', 'user-login', 'webhooks'] },
  ),
  async ({ api, config, freshToken, inbox: openInbox, tokenPool, verdict }) => {
    const login = config.userLogin;
    if (!login) throw new Error('unreachable: user-login capability without userLogin');
    const user = revokedUser(config);
    const { waitSeconds } = config.webhooks;
    // A grant of the user's (granting access again also resumes webhooks after an earlier revocation).
    const grant = await freshToken(['read:profile'], user);
    const userId = await userIdOf(api, grant.accessToken);
    const forUser = aboutUser(userId);
    // Closed when the test ends, the client's registrations as they were.
    const inbox = await openInbox(login.clientId, '/webhooks/revoke');
    await inbox.changeUserData(userId);
    const before = await inbox.waitFor(forUser, waitSeconds * 1000);
    if (before.length === 0) {
      const reason = `no webhook for user ${user} (user_id ${userId}) arrived within ${waitSeconds} s before the revocation, so their stopping cannot be observed`;
      if (!config.capabilities.has('sandbox-admin'))
        verdict.notVerified(
          `${reason}; they come when the user's data changes (docs/sign-in.md, "Webhooks")`,
        );
      verdict.fail(reason);
    }

    const revoked = await revokeWith(api, tokenPool, grant.accessToken);
    verdict.expectSuccess(revoked, 'the revocation itself');
    const quietFrom = Date.now() + IN_FLIGHT_MS;
    await sleep(IN_FLIGHT_MS); // deliveries the service started before the revocation may still land
    await inbox.changeUserData(userId);
    const afterQuiet = (delivery: Delivery) => delivery.receivedAt > quietFrom;
    const late = await inbox.waitFor(
      (delivery) => afterQuiet(delivery) && forUser(delivery),
      waitSeconds * 1000 - IN_FLIGHT_MS,
    );
    verdict.soft.expectThat(
      late.length === 0,
      `${late.length} webhook(s) for user ${user} (user_id ${userId}) arrived between ${IN_FLIGHT_MS} ms and ${waitSeconds} s after the revocation: ${late[0] ? deliveryText(late[0]).slice(0, 200) : ''}`,
    );
    // The user's access granted again, whatever granting it comes to: a later check that needs the grant
    // signs in again.
    await attempt(tokenPool.fresh(['read:profile'], user));
    const others = inbox.deliveries().filter((delivery) => afterQuiet(delivery) && !forUser(delivery));
    verdict.evidence(
      `${before.length} webhook(s) for user_id ${userId} before the revocation, none from ${IN_FLIGHT_MS} ms to ${waitSeconds} s after it (${others.length} for others meanwhile)`,
    );
  },
);
