// Wiring of the user-data side of one sandbox instance: accounts, OAuth clients and tokens, the data store
// and the cursor codec, all built from the context (options, faults, credentials).
import type { SandboxContext } from '../context.ts';
import { buildClients, type OAuthClient } from '../oauth/clients.ts';
import { UserTokenStore } from '../oauth/tokens.ts';
import { type Account, buildAccounts } from './accounts.ts';
import { CursorCodec } from './cursor.ts';
import { generateUserRecords } from './generator.ts';
import { applyRecordFaults, recordFaults } from './record-faults.ts';
import { makeSparse } from './sparse.ts';
import { buildStore, type DataStore } from './store.ts';

export interface UserServices {
  ctx: SandboxContext;
  accounts: readonly Account[];
  clients: ReadonlyMap<string, OAuthClient>;
  tokens: UserTokenStore;
  store: DataStore;
  cursors: CursorCodec;
}

/**
 * Stores built in this process, by everything their data depends on. A store is read-only once built, so
 * instances with the same data share one: a matrix run (src/config/run-plan.ts) starts hundreds.
 */
const builtStores = new Map<string, DataStore>();

function dataStore(ctx: SandboxContext, accounts: readonly Account[]): DataStore {
  const { seed, now, dataEpoch } = ctx.options;
  const epoch = dataEpoch ?? now().getTime();
  const sparse = ctx.variant('sparse-user');
  const key = JSON.stringify([seed, epoch, sparse, recordFaults(ctx), accounts]);
  const known = builtStores.get(key);
  if (known) return known;
  const records = accounts.map((account, index) => {
    const generated = generateUserRecords(account, seed, epoch);
    if (sparse) makeSparse(generated, index);
    applyRecordFaults(generated, ctx);
    return generated;
  });
  const store = buildStore(records);
  // Only instances given a shared epoch can meet again.
  if (dataEpoch !== undefined) builtStores.set(key, store);
  return store;
}

export function createUserServices(ctx: SandboxContext): UserServices {
  const accounts = buildAccounts(ctx.credentials);
  return {
    ctx,
    accounts,
    clients: buildClients(ctx.credentials),
    tokens: new UserTokenStore(ctx.options.now),
    store: dataStore(ctx, accounts),
    cursors: new CursorCodec(`seed:${ctx.options.seed}`, {
      unsigned: ctx.variant('offset-cursor'),
      brokenSignatureFails: ctx.fault('pagination-tampered-cursor-500'),
      servesForeignUser: ctx.fault('pagination-foreign-cursor-leaks'),
    }),
  };
}
