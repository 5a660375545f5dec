// Wiring of the user-data side of one sandbox instance: accounts, OAuth clients and tokens, the data store
// and the cursor codec, all built from the context (options, faults, credentials).
import type { SandboxContext } from '../context.ts';
import { buildClients, type OAuthClient } from '../oauth/clients.ts';
import { UserTokenStore } from '../oauth/tokens.ts';
import { type Account, buildAccounts } from './accounts.ts';
import { CursorCodec } from './cursor.ts';
import { generateUserRecords } from './generator.ts';
import { applyRecordFaults } from './record-faults.ts';
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

export function createUserServices(ctx: SandboxContext): UserServices {
  const { seed, now } = ctx.options;
  const accounts = buildAccounts(ctx.credentials);
  const startedAt = now().getTime();
  const records = accounts.map((account, index) => {
    const generated = generateUserRecords(account, seed, startedAt);
    if (ctx.variant('sparse-user')) makeSparse(generated, index);
    applyRecordFaults(generated, ctx);
    return generated;
  });
  return {
    ctx,
    accounts,
    clients: buildClients(ctx.credentials),
    tokens: new UserTokenStore(now),
    store: buildStore(records),
    cursors: new CursorCodec(`seed:${seed}`, {
      unsigned: ctx.variant('offset-cursor'),
      brokenSignatureFails: ctx.fault('pagination-tampered-cursor-500'),
      servesForeignUser: ctx.fault('pagination-foreign-cursor-leaks'),
    }),
  };
}
