// The machinery of the variant self tests (sandbox-variants*.spec.ts): an in-process sandbox per describe
// block running the variants under test, page walks, and schema checks that read null as absent.
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '../../sandbox/app.ts';
import type { VariantName } from '../../sandbox/variants.ts';
import { assertValid } from '../../src/contract/validators.ts';
import {
  api,
  authorizationCode,
  collections,
  login,
  redirectUriFor,
  start,
  TestClock,
} from './sandbox-client.ts';
import { type PartnerSandbox, startPartnerSandbox } from './sandbox-partner-support.ts';

export type Rec = Record<string, unknown>;
export type CollectionName = keyof typeof collections;
export const DAY = 86_400_000;
export const ms = (text: unknown): number => Date.parse(String(text));
export const iso = (value: number): string => new Date(value).toISOString();
export const idOf = (record: Rec): string => String(record.id ?? record.cycle_id);
export const collectionEntries = Object.entries(collections) as [CollectionName, string][];

export const pageSchemas: Record<CollectionName, string> = {
  cycle: 'paginated-cycle-response',
  sleep: 'paginated-sleep-response',
  recovery: 'recovery-collection',
  workout: 'workout-collection',
};

/** The value with every null member removed: what a reader treating null as absent sees. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([name, member]) => [name, withoutNulls(member)]),
  );
}

export const conforms = (schema: string, body: unknown): void => assertValid(schema, withoutNulls(body));

export interface UserRun {
  sandbox: RunningSandbox;
  clock: TestClock;
  tokenA: string;
  tokenB: string;
}

/** A sandbox running `names` (and `faults`) for the tests of one describe block, with tokens of A and B. */
export function userSandbox(names: VariantName[], faults: string[] = []): () => UserRun {
  let run: UserRun | undefined;
  test.beforeAll(async () => {
    const clock = new TestClock();
    const sandbox = await start({
      now: clock.now,
      variants: names,
      faults,
      rateLimit: { limit: 1_000_000, windowSeconds: 60 },
    });
    // HTTP Basic client authentication works with every variant (basic-client-auth demands it).
    const [a, b] = await Promise.all([
      login(sandbox, { basic: true }),
      login(sandbox, { user: 'B', basic: true }),
    ]);
    run = { sandbox, clock, tokenA: a.access_token, tokenB: b.access_token };
  });
  test.afterAll(async () => run?.sandbox.close());
  return () => {
    if (!run) throw new Error('sandbox not started');
    return run;
  };
}

/** A partner sandbox running `names` for the tests of one describe block. */
export function partnerSandbox(names: VariantName[]): () => PartnerSandbox {
  let sandbox: PartnerSandbox | undefined;
  test.beforeAll(async () => {
    sandbox = await startPartnerSandbox({ variants: new Set(names) });
  });
  test.afterAll(async () => sandbox?.close());
  return () => {
    if (!sandbox) throw new Error('sandbox not started');
    return sandbox;
  };
}

/** Every page of a collection walk (following next_token), each checked for status 200. */
export async function pages(run: UserRun, path: string, query: Record<string, string>, token = run.tokenA) {
  const walked: Rec[] = [];
  let nextToken: string | undefined;
  for (let count = 0; count < 200; count += 1) {
    const params = new URLSearchParams({ ...query, ...(nextToken ? { nextToken } : {}) });
    const response = await api(run.sandbox, `${path}?${params}`, token);
    expect(response.status, `${path}?${params}: ${response.text}`).toBe(200);
    walked.push(response.body);
    nextToken = response.body.next_token ?? undefined;
    if (!nextToken) return walked;
  }
  throw new Error('too many pages');
}

export const recordsOf = (walked: Rec[]): Rec[] => walked.flatMap((page) => page.records as Rec[]);

/** The fields of an authorization_code token request, with a fresh code. */
export const codeGrant = async (sandbox: RunningSandbox) => ({
  grant_type: 'authorization_code',
  code: await authorizationCode(sandbox),
  redirect_uri: redirectUriFor(sandbox),
});
