// The run's memo (src/suite/run-memo.ts through src/run/run-coordinator.ts): what one worker reads, every
// other asker of the run gets, without reading it again; a read that failed is not remembered.
import { expect, test } from '@playwright/test';
import { coordinatorCall } from '../../src/http/coordinator-client.ts';
import { startRunCoordinator } from '../../src/run/run-coordinator.ts';
import { jsonCodec, RunMemo } from '../../src/suite/run-memo.ts';

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
