// Probes of the user-area faults whose wrong answer a check may meet outside its own rule: a page that is not
// JSON, user B's collection failing, and a first answer that leaves late and wrong while the read sent again
// is right (its lateness shortened here: option lateFirstCopyMs).
import assert from 'node:assert/strict';
import { validate } from '../../src/contract/validators.ts';
import { collections } from './sandbox-client.ts';
import { newestId, type Probe, type ProbeContext, type Probes } from './sandbox-fault-probe.ts';

const LATE_MS = 40;

/** The first read of `path` and the read sent again while it is held, both answered as a clean sandbox would. */
async function firstAndCopy(p: ProbeContext, path: string, token?: string) {
  const first = p.get(path, token);
  await new Promise((resolve) => setTimeout(resolve, LATE_MS / 4));
  const copy = await p.get(path, token);
  return { first: await first, copy };
}

/** Both sendings of a read by id (of `collection`'s newest record) answer 200 with a body valid by `schema`. */
const bothRight = (collection: string, byId: string, schema: string): Probe => ({
  options: { lateFirstCopyMs: LATE_MS },
  async check(p) {
    const { first, copy } = await firstAndCopy(p, `${byId}/${await newestId(p, collection)}`);
    for (const answer of [first, copy]) {
      assert.equal(answer.status, 200, answer.text);
      assert.ok(validate(schema, answer.body).valid, answer.text);
    }
  },
});

export const answerProbes = {
  'cycles-without-limit-not-json': {
    async check(p) {
      const page = await p.get(collections.cycle);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(page.body !== undefined, page.text);
    },
  },
  'user-b-collection-500': {
    async check(p) {
      for (const user of ['A', 'B'] as const) {
        const page = await p.get(`${collections.cycle}?limit=5`, await p.token(user));
        assert.equal(page.status, 200, `user ${user}: ${page.text}`);
      }
    },
  },
  'late-first-copy-404': bothRight(collections.cycle, '/v2/cycle', 'cycle'),
  'late-first-copy-broken-body': bothRight(collections.sleep, '/v2/activity/sleep', 'sleep'),
  'late-first-copy-invalid-token-200': {
    options: { lateFirstCopyMs: LATE_MS },
    async check(p) {
      const { first, copy } = await firstAndCopy(p, collections.cycle, 'never-issued-token-0123456789');
      assert.deepEqual([first.status, copy.status], [401, 401]);
    },
  },
} satisfies Probes;
