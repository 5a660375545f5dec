// The run's memo (src/worker/session/run-memo.ts through src/runner/coordinator/server.ts): what one worker reads, every
// other asker of the run gets, without reading it again; a read that failed is not remembered, and one that
// got no answer blocks the askers that waited for it.
import { expect, test } from '@playwright/test';
import type { MemoClaim } from '../../src/protocol/coordinator-routes.ts';
import { startRunCoordinator } from '../../src/runner/coordinator/server.ts';
import { type CoordinatorCall, coordinatorCall } from '../../src/worker/session/coordinator-client.ts';
import { jsonCodec, RunMemo } from '../../src/worker/session/run-memo.ts';
import { UnansweredFailure, unansweredElsewhere } from '../../src/worker/session/unanswered.ts';

test('askers of one key share one read; a failed read leaves the key to the next asker', async () => {
  const coordinator = await startRunCoordinator(Date.now() + 60_000);
  try {
    // Two workers: two lines to the coordinator, one scope (the target).
    const [first, second] = [0, 1].map(() => new RunMemo(coordinatorCall(coordinator.url), 'target'));
    let reads = 0;
    const slowRead = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { records: [1, 2, 3] };
    };
    const values = await Promise.all([
      first?.remember('walk', slowRead, jsonCodec()),
      second?.remember('walk', slowRead, jsonCodec()),
    ]);
    expect(values).toEqual([{ records: [1, 2, 3] }, { records: [1, 2, 3] }]);
    expect(reads).toBe(1);

    await expect(
      first?.remember('broken', () => Promise.reject(new Error('503')), jsonCodec()),
    ).rejects.toThrow('503');
    expect(await second?.remember('broken', async () => 'read again', jsonCodec())).toBe('read again');
  } finally {
    await coordinator.close();
  }
});

test('a read that got no answer blocks the askers that waited for it; the next asker reads it again', async () => {
  const coordinator = await startRunCoordinator(Date.now() + 60_000);
  try {
    let waiting!: () => void;
    const secondWaits = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const call = coordinatorCall(coordinator.url);
    // The second worker's line tells when it waits for the first worker's read.
    const watched: CoordinatorCall = async (route, body) => {
      const answer = (await call(route, body)) as MemoClaim;
      if (answer.kind === 'wait') waiting();
      return answer;
    };
    const [first, second, third] = [call, watched, call].map((line) => new RunMemo(line, 'target'));
    const read = { requirement: 'OP-LIST-CYCLES', request: 'GET http://x/v2/cycle?limit=25: no response' };
    const sent = first?.remember(
      'walk',
      async () => {
        await secondWaits;
        throw unansweredElsewhere(read);
      },
      jsonCodec(),
    );
    const waited = second?.remember('walk', async () => 'never read by a waiter', jsonCodec());
    await expect(sent).rejects.toMatchObject({ read });
    // The waiter gets the read's failure as another worker's (its check is blocked by it, never failed).
    const error = await waited?.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(UnansweredFailure);
    expect(error).toMatchObject({ read, sender: undefined });
    expect(await third?.remember('walk', async () => 'read again', jsonCodec())).toBe('read again');
  } finally {
    await coordinator.close();
  }
});
