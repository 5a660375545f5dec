// The fixtures of each data domain, on the core fixtures (fixtures.ts): a test's view of user A's data
// (`dataset`, over the worker's `_userDataCache`) and of partner A's (`partnerData`).

import { PartnerData } from '../partner-data/partner-data.ts';
import { openWebhookInbox, type WebhookInbox } from '../partner-data/webhook-inbox.ts';
import { Dataset, limitRead } from '../user-data/dataset.ts';
import { planOf } from '../user-data/depth.ts';
import { grantMismatchOf } from '../user-data/grant-guard.ts';
import { UserDataCache } from '../user-data/user-data-cache.ts';
import { judgedFixtures } from './ending-recorder.ts';
import { coreTest, internal } from './fixtures.ts';

/** The user-data fixtures: the cache of the user's data of the test's target session, and the test's view of it. */
export const userDataTest = coreTest.extend<{ _userDataCache: UserDataCache; dataset: Dataset }>(
  judgedFixtures({
    _userDataCache: [
      async ({ session }, use) =>
        use(
          session.shared(
            'user data',
            () => new UserDataCache(session.api, !session.config.capabilities.has('stateful'), session.memo),
          ),
        ),
      { title: "the worker's reads of user data", ...internal },
    ],
    dataset: [
      async ({ _userDataCache, api, userToken, tokenPool, session }, use) => {
        const dataset: Dataset = new Dataset(
          _userDataCache,
          api,
          () => userToken(),
          grantMismatchOf(tokenPool),
          () => planOf(session, () => limitRead(dataset)),
        );
        await use(dataset);
      },
      internal,
    ],
  }),
);

/**
 * The partner-data fixtures: partner A's data of the test's target session, through the test's client; and
 * the webhooks a client receives, opened for the test (`inbox(owner, path)`) and closed when it ends, the
 * owner's registrations restored (src/worker/partner-data/webhook-inbox.ts).
 */
export const partnerDataTest = coreTest.extend<{
  partnerData: PartnerData;
  inbox: (owner: string, path: string) => Promise<WebhookInbox>;
}>(
  judgedFixtures({
    partnerData: [
      async ({ session, partnerA, api }, use) => use(new PartnerData(session, partnerA, api)),
      internal,
    ],
    inbox: [
      async ({ api, config }, use) => {
        const opened: WebhookInbox[] = [];
        await use(async (owner, path) => {
          const inbox = await openWebhookInbox(api, config, owner, path);
          opened.push(inbox);
          return inbox;
        });
        for (const inbox of opened) await inbox.close();
      },
      internal,
    ],
  }),
);
