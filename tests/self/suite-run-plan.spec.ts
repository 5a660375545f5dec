// The run plan (src/config/run-plan.ts): which projects a run has, which target instance each uses, and
// the matrix of targets the variant and mutation gates hand it (CONFORMANCE_MATRIX), with its errors.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { isolatedShares, Tags } from '../../src/config/profiles.ts';
import { runPlan, runTargets, TARGET_ANNOTATION } from '../../src/config/run-plan.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';

const [target] = runTargets({});
if (!target) throw new Error('a run without a matrix has one target');
const shares = isolatedShares('ci-gate');

/** A matrix file with these entries; returns the variables that name it. */
function matrix(entries: unknown): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'run-plan-')), 'matrix.json');
  writeFileSync(file, JSON.stringify(entries));
  return { CONFORMANCE_MATRIX: file };
}

test('on the embedded sandbox each share of the isolated tests gets an instance and a lane, scheduled first, beside the rest', () => {
  const plan = runPlan([target], true, shares);
  expect(plan.projects).toEqual([
    { name: 'isolated', role: 'isolated', instances: { '': 1 }, share: shares[0], isolation: 'apart' },
    { name: 'isolated 2', role: 'isolated', instances: { '': 2 }, share: shares[1], isolation: 'apart' },
    { name: 'conformance', role: 'conformance', instances: { '': 0 }, isolation: 'apart' },
  ]);
  expect(plan.instances.map((instance) => instance.role)).toEqual(['conformance', 'isolated', 'isolated']);
  expect(plan.isolatedBeside).toBe(true);
  expect(plan.isolatedLanes).toBe(2);
});

test('on any other target the isolated tests share it, a lane a share: the revocations first, the others after them, the 429 burst last', () => {
  const plan = runPlan([target], false, shares);
  expect(plan.projects).toEqual([
    { name: 'isolated', role: 'isolated', instances: { '': 0 }, share: shares[0], isolation: 'last' },
    { name: 'isolated 2', role: 'isolated', instances: { '': 0 }, share: shares[1], isolation: 'first' },
    { name: 'conformance', role: 'conformance', instances: { '': 0 }, isolation: 'after' },
  ]);
  expect(plan.instances).toHaveLength(1);
  expect(plan).toMatchObject({ isolatedBeside: true, isolatedFirst: true, isolatedLanes: 2 });
});

test('smoke, which runs no isolated test, gets one instance, its empty isolated project after the rest', () => {
  for (const plan of [runPlan([target], false, isolatedShares('smoke')), runPlan([target], true, [])]) {
    expect(plan.projects).toEqual([
      {
        name: 'conformance',
        role: 'conformance',
        instances: { '': 0 },
        isolation: 'apart',
        teardown: 'isolated',
      },
      { name: 'isolated', role: 'isolated', instances: { '': 0 }, isolation: 'apart' },
    ]);
    expect(plan.instances).toHaveLength(1);
    expect(plan).toMatchObject({ isolatedBeside: false, isolatedFirst: false, isolatedLanes: 1 });
  }
});

test('a run without a matrix has one unnamed target with the faults and variants of the variables', () => {
  expect(runTargets({ CONFORMANCE_SANDBOX_FAULTS: 'a,b', CONFORMANCE_SANDBOX_VARIANTS: 'slow' })).toEqual([
    { name: '', faults: ['a', 'b'], variants: ['slow'], env: {} },
  ]);
});

test('a matrix names each target: each on instances of its own, its isolated tests in one of two lanes', () => {
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
  const plan = runPlan(targets, true, shares);
  // The isolated tests in two lanes, each target's in one (one at a time for a target).
  expect(plan.projects.map(({ name, instances }) => [name, instances])).toEqual([
    ['isolated', { 'fault-a': 1 }],
    ['isolated 2', { 'variant-b': 3 }],
    ['conformance', { 'fault-a': 0, 'variant-b': 2 }],
  ]);
  expect(plan.isolatedLanes).toBe(2);
  expect(plan.instances.map(({ target, role }) => [target.name, role])).toEqual([
    ['fault-a', 'conformance'],
    ['fault-a', 'isolated'],
    ['variant-b', 'conformance'],
    ['variant-b', 'isolated'],
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

interface ListedSuite {
  specs?: {
    title: string;
    tags: string[];
    tests: { projectName: string; annotations: { type: string; description?: string }[] }[];
  }[];
  suites?: ListedSuite[];
}

/** `playwright test --list` of the suite: each test as "project: title [tags] → target annotation". */
function listed(env: Record<string, string>): string[] {
  const out = execFileSync(process.execPath, [playwrightCli(), 'test', '--list', '--reporter=json'], {
    env: { ...process.env, CONFORMANCE_BASE_URL: undefined, CONFORMANCE_ENV_FILE: undefined, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const lines: string[] = [];
  const walk = (suite: ListedSuite): void => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) {
        const target = t.annotations.find((a) => a.type === TARGET_ANNOTATION)?.description;
        lines.push(
          `${t.projectName}: ${spec.title} ${spec.tags.map((tag) => `@${tag}`).join(' ')}${target === undefined ? '' : ` → ${target}`}`,
        );
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of (JSON.parse(out) as { suites: ListedSuite[] }).suites) walk(suite);
  return lines.sort();
}

test('a matrix run declares each test once per target that selects it, named and annotated after the target', () => {
  const plain = listed({});
  const selected = plain.filter((line) => /@PAG-LIMIT-MAX(\s|$)/.test(line));
  expect(selected.length, 'the grep selects some tests').toBeGreaterThan(0);
  /** The plain run's lines as the registrations of `target`, whose isolated tests run in `lane`. */
  const named = (lines: string[], target: string, lane: string) =>
    lines.map((line) => {
      const [head = '', ...tags] = line.replace(/^isolated( \d+)?:/, `${lane}:`).split(' @');
      return `${head} [${target}]${tags.map((tag) => ` @${tag}`).join('')} → ${target}`;
    });
  const inMatrix = listed(
    matrix([
      { name: 'fault-a', faults: ['pagination-limit-25-rejected'], grep: '@PAG-LIMIT-MAX(?=\\s|$)' },
      { name: 'variant-b', variants: ['slow'] },
    ]),
  );
  expect(inMatrix).toEqual(
    [...named(selected, 'fault-a', 'isolated'), ...named(plain, 'variant-b', 'isolated 2')].sort(),
  );
});

test('the embedded run splits its isolated tests into the shares: the 429 burst in one lane, the revocations in the other', () => {
  const all = listed({});
  const lane = (name: string) => all.filter((line) => line.startsWith(`${name}: `));
  const burst = lane('isolated');
  const rest = lane('isolated 2');
  expect(burst.length, 'the burst lane has tests').toBeGreaterThan(0);
  expect(rest.length, 'the other lane has tests').toBeGreaterThan(0);
  // Every isolated test runs in exactly one of them.
  expect([...burst, ...rest].sort()).toEqual(
    all.filter((line) => new RegExp(`${Tags.isolated}(\\s|$)`).test(line)),
  );
  for (const line of burst) expect(line).toMatch(new RegExp(`${Tags.rateLimit}(\\s|$)`));
  for (const line of rest) expect(line).not.toMatch(new RegExp(`${Tags.rateLimit}(\\s|$)`));
  expect(rest.some((line) => /@REVOKE-WEBHOOKS-STOP(\s|$)/.test(line))).toBe(true);
});
