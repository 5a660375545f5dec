// Every user-area fault changes the behaviour it names: for each fault a probe that passes against a clean
// sandbox and fails against a sandbox with only that fault (both in-process, on free ports). The probes live
// by area in sandbox-fault-probes-*.ts; their union is typed by the fault catalogue, so a new fault without
// a probe does not compile.
import { expect, test } from '@playwright/test';
import { faults } from '../../sandbox/faults/index.ts';
import { userFaults } from '../../sandbox/faults/user.ts';
import { type Probe, runProbe, type UserFault } from './sandbox-fault-probe.ts';
import { accessProbes } from './sandbox-fault-probes-access.ts';
import { answerProbes } from './sandbox-fault-probes-answers.ts';
import { dataProbes } from './sandbox-fault-probes-data.ts';
import { pagingProbes } from './sandbox-fault-probes-paging.ts';

const probes: Record<UserFault, Probe> = {
  ...dataProbes,
  ...pagingProbes,
  ...accessProbes,
  ...answerProbes,
};

test('every user-area fault names a requirement of specs/requirements.yaml and there are at least 30', async () => {
  const { findRequirement } = await import('../../src/contract/requirements.ts');
  expect(Object.keys(userFaults).length).toBeGreaterThanOrEqual(30);
  for (const [name, fault] of Object.entries(userFaults)) {
    expect(findRequirement(fault.requirement), `${name} → ${fault.requirement}`).toBeDefined();
    expect(faults[name as keyof typeof faults]).toBe(fault);
  }
});

for (const [name, probe] of Object.entries(probes) as [UserFault, Probe][]) {
  test(`fault ${name} breaks ${userFaults[name].requirement}`, async () => {
    await runProbe(probe, []);
    const faulty = await runProbe(probe, [name]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(faulty, `the probe still passes with ${name}`).toBeInstanceOf(Error);
  });
}
