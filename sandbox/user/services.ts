// Wiring of the user-data side of one sandbox instance: accounts, OAuth clients and tokens, the data store
// and the cursor codec, all built from the context (options, faults, credentials).
import type { SandboxContext } from '../context.ts';
import { buildClients, type OAuthClient } from '../oauth/clients.ts';
import { UserTokenStore } from '../oauth/tokens.ts';
import { type Account, buildAccounts } from './accounts.ts';
import { CursorCodec } from './cursor.ts';
import { generateUserRecords } from './generator.ts';
import { applyRecordFaults, recordFaults } from './record-faults.ts';
import { keepFewRecords, makeSparse } from './sparse.ts';
import { buildStore, type DataStore } from './store.ts';
import { applyTimeFormats, timeFormat } from './time-formats.ts';

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
 * instances with the same data share one: a matrix run (src/config/run-plan.ts) starts hundreds, and the
 * self tests start many on the same fixed clock. The most recently used are kept: an instance on the real
 * clock has an epoch of its own, and would otherwise stay for the life of the process.
 */
const builtStores = new Map<string, DataStore>();
const KEPT_STORES = 16;

function dataStore(ctx: SandboxContext, accounts: readonly Account[]): DataStore {
  const { seed, now, dataEpoch } = ctx.options;
  const epoch = dataEpoch ?? now().getTime();
  const sparse = ctx.variant('sparse-user');
  const bodylessB = ctx.variant('body-measurement-a-only');
  const simultaneousWorkouts = ctx.variant('start-ties');
  const fewRecordsB = ctx.variant('few-records-user-b');
  const historyDays = ctx.variant('long-history') ? LONG_HISTORY_DAYS : ctx.options.historyDays;
  const shape = {
    sparse,
    bodylessB,
    fewRecordsB,
    simultaneousWorkouts,
    historyDays,
    format: timeFormat(ctx),
  };
  const key = JSON.stringify([seed, epoch, shape, recordFaults(ctx), accounts]);
  const known = builtStores.get(key);
  builtStores.delete(key);
  const store = known ?? build(ctx, accounts, epoch, shape);
  builtStores.set(key, store);
  if (builtStores.size > KEPT_STORES) builtStores.delete(builtStores.keys().next().value as string);
  return store;
}

/** Variant long-history: about three years of history (1,100 cycles), as a long-standing account has. */
const LONG_HISTORY_DAYS = 1100;

interface DataShape {
  sparse: boolean;
  /** Variant body-measurement-a-only: the second user has no body measurement. */
  bodylessB: boolean;
  /** Variant few-records-user-b: the second user has two records of each collection. */
  fewRecordsB: boolean;
  simultaneousWorkouts: boolean;
  historyDays: number;
  format: ReturnType<typeof timeFormat>;
}

function build(
  ctx: SandboxContext,
  accounts: readonly Account[],
  epoch: number,
  shape: DataShape,
): DataStore {
  const { sparse, bodylessB, fewRecordsB, simultaneousWorkouts, historyDays, format } = shape;
  const records = accounts.map((account, index) => {
    const generated = generateUserRecords(account, ctx.options.seed, epoch, {
      simultaneousWorkouts,
      historyDays,
    });
    if (sparse) makeSparse(generated, index);
    if (bodylessB && index === 1) delete generated.body;
    if (fewRecordsB && index === 1) keepFewRecords(generated);
    applyRecordFaults(generated, ctx);
    applyTimeFormats(generated, format);
    return generated;
  });
  return buildStore(records);
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
