// The run plan (src/config/run-plan.ts): which projects a run has, which target instance each uses, and
// the matrix of targets the variant and mutation gates hand it (CONFORMANCE_MATRIX), with its errors.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runTargets } from '../../src/config/config.ts';
import { runsIsolatedTests } from '../../src/config/profiles.ts';
import { runPlan } from '../../src/config/run-plan.ts';

const [target] = runTargets({});
if (!target) throw new Error('a run without a matrix has one target');

/** A matrix file with these entries; returns the variables that name it. */
function matrix(entries: unknown): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'run-plan-')), 'matrix.json');
  writeFileSync(file, JSON.stringify(entries));
  return { CONFORMANCE_MATRIX: file };
}

test('on the embedded sandbox the isolated tests get an instance of their own, scheduled first, beside the rest', () => {
  const plan = runPlan([target], true, true);
  expect(
    plan.projects.map(({ name, role, instance, teardown }) => ({ name, role, instance, teardown })),
  ).toEqual([
    { name: 'isolated', role: 'isolated', instance: 1, teardown: undefined },
    { name: 'conformance', role: 'conformance', instance: 0, teardown: undefined },
  ]);
  expect(plan.instances.map((instance) => instance.role)).toEqual(['conformance', 'isolated']);
  expect(plan.isolatedBeside).toBe(true);
});

test('on any other target the isolated tests share it, after the rest; smoke, which runs none, gets one instance', () => {
  for (const plan of [runPlan([target], false, true), runPlan([target], true, runsIsolatedTests('smoke'))]) {
    expect(plan.projects.map(({ name, instance, teardown }) => ({ name, instance, teardown }))).toEqual([
      { name: 'conformance', instance: 0, teardown: 'isolated' },
      { name: 'isolated', instance: 0, teardown: undefined },
    ]);
    expect(plan.instances).toHaveLength(1);
    expect(plan.isolatedBeside).toBe(false);
  }
});

test('a run without a matrix has one unnamed target with the faults and variants of the variables', () => {
  expect(runTargets({ CONFORMANCE_SANDBOX_FAULTS: 'a,b', CONFORMANCE_SANDBOX_VARIANTS: 'slow' })).toEqual([
    { name: '', faults: ['a', 'b'], variants: ['slow'], env: {} },
  ]);
});

test('a matrix names each target: two projects per target, named after it, each on its own instance', () => {
  const targets = runTargets(
    matrix([
      { name: 'fault-a', faults: ['cycle-missing-user-id'], grep: '@SCH-CYCLE(?=\\s|$)' },
      { name: 'variant-b', variants: ['slow'], env: { CONFORMANCE_STRICT: '1' } },
    ]),
  );
  expect(targets).toEqual([
    {
      name: 'fault-a',
      faults: ['cycle-missing-user-id'],
      variants: [],
      grep: '@SCH-CYCLE(?=\\s|$)',
      env: {},
    },
    { name: 'variant-b', faults: [], variants: ['slow'], grep: undefined, env: { CONFORMANCE_STRICT: '1' } },
  ]);
  const plan = runPlan(targets, true, true);
  expect(plan.projects.map(({ name, instance }) => [name, instance])).toEqual([
    ['fault-a isolated', 1],
    ['fault-a', 0],
    ['variant-b isolated', 3],
    ['variant-b', 2],
  ]);
});

test('a matrix that cannot run is refused before any target starts, naming the variable and the problem', () => {
  const refusals: [Record<string, string>, RegExp][] = [
    [{ ...matrix([{ name: 'a' }]), CONFORMANCE_BASE_URL: 'https://example.test' }, /embedded sandbox only/],
    [
      { ...matrix([{ name: 'a' }]), CONFORMANCE_SANDBOX_FAULTS: 'x' },
      /CONFORMANCE_SANDBOX_FAULTS cannot be set/,
    ],
    [matrix([{ name: 'a' }, { name: 'a' }]), /names a target twice: a/],
    [matrix([{ name: 'has space' }]), /target 0 must be/],
    [matrix([{ name: 'a', faults: 'x' }]), /target 0 must be/],
    [matrix([]), /at least one target/],
    [{ CONFORMANCE_MATRIX: '/nonexistent/matrix.json' }, /names no file/],
  ];
  for (const [env, problem] of refusals) expect(() => runTargets(env), JSON.stringify(env)).toThrow(problem);
});
