// The fixtures of each data domain, on the core fixtures (fixtures.ts): a test's view of user A's data
// (`dataset`, over the worker's `userDataCache`) and of partner A's (`partnerData`).

import { PartnerData } from '../partner-data/partner-data.ts';
import { Dataset, limitRead } from '../user-data/dataset.ts';
import { planOf } from '../user-data/depth.ts';
import { grantMismatchOf } from '../user-data/grant-guard.ts';
import { UserDataCache } from '../user-data/user-data-cache.ts';
import { judgedFixtures } from './ending-recorder.ts';
import { coreTest, internal } from './fixtures.ts';

/** The user-data fixtures: the cache of the user's data of the test's target session, and the test's view of it. */
export const userDataTest = coreTest.extend<{ userDataCache: UserDataCache; dataset: Dataset }>(
  judgedFixtures({
    userDataCache: [
      async ({ session }, use) =>
        use(
          session.shared(
            'user data',
            () => new UserDataCache(session.api, !session.config.capabilities.has('stateful'), session.memo),
          ),
        ),
      internal,
    ],
    dataset: [
      async ({ userDataCache, api, userToken, tokenPool, session }, use) => {
        const dataset: Dataset = new Dataset(
          userDataCache,
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

/** The partner-data fixture: partner A's data of the test's target session, through the test's client. */
export const partnerDataTest = coreTest.extend<{ partnerData: PartnerData }>(
  judgedFixtures({
    partnerData: [
      async ({ session, partnerA, api }, use) => use(new PartnerData(session, partnerA, api)),
      internal,
    ],
  }),
);
