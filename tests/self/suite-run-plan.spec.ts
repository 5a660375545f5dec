// The run plan (src/config/run-plan.ts): which projects a run has, which target instance each uses, and
// the matrix of targets the variant and mutation gates hand it (CONFORMANCE_MATRIX), with its errors.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { isolatedShares, Tags } from '../../src/config/profiles.ts';
import { runPlan, runTargets, TARGET_ANNOTATION } from '../../src/config/run-plan.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';
import { apartFromTheWaiting, waitingTargets } from '../../src/runner/run/waiting-targets.ts';
import { scratchDir } from './scratch.ts';

const [target] = runTargets({});
if (!target) throw new Error('a run without a matrix has one target');
const shares = isolatedShares('ci-gate');

/** A matrix file with these entries; returns the variables that name it. */
function matrix(entries: unknown): Record<string, string> {
  const file = join(mkdtempSync(join(scratchDir(), 'run-plan-')), 'matrix.json');
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

test("a matrix's waiting targets (waits: true) run apart: their tests each on its own on the workers they name, their isolated tests in a lane of their own", () => {
  const targets = runTargets(
    matrix([
      { name: 'late-a', variants: ['every-answer-700ms'], env: { CONFORMANCE_WORKERS: '6' }, waits: true },
      { name: 'plain-b', variants: ['nulls-for-absent'] },
      { name: 'late-c', variants: ['slow'], env: { CONFORMANCE_WORKERS: '3' }, waits: true },
      // Its own workers alone do not make a target wait.
      { name: 'plain-d', env: { CONFORMANCE_WORKERS: '2' } },
    ]),
  );
  const plan = runPlan(targets, true, shares);
  const waiting = waitingTargets(targets, {});
  expect(waiting).toEqual({ names: ['late-a', 'late-c'], workers: 6 });
  const { projects, addedWorkers } = apartFromTheWaiting(plan, targets.length, waiting);
  expect(
    projects.map(({ name, role, instances, waitingWorkers }) => [name, role, instances, waitingWorkers]),
  ).toEqual([
    ['isolated (waiting)', 'isolated', { 'late-a': 1, 'late-c': 5 }, undefined],
    ['conformance (waiting)', 'conformance', { 'late-a': 0, 'late-c': 4 }, 6],
    ['isolated 2', 'isolated', { 'plain-b': 3, 'plain-d': 7 }, undefined],
    ['conformance', 'conformance', { 'plain-b': 2, 'plain-d': 6 }, undefined],
  ]);
  // The plan's first lane held late-a and late-c alone: their lane takes its place. Six workers more.
  expect(addedWorkers).toBe(6);
  const [lane, waitingProject, otherLane, others] = projects;
  for (const [project, title, runs] of [
    [lane, 'RL-429: a burst [late-c] @RL-429', true],
    [lane, 'RL-429: a burst [plain-b] @RL-429', false],
    [waitingProject, 'PAG-LIMIT-MAX: limit 25 [late-a] @PAG-LIMIT-MAX', true],
    [waitingProject, 'PAG-LIMIT-MAX: limit 25 [plain-d] @PAG-LIMIT-MAX', false],
    [otherLane, 'RL-429: a burst [plain-d] @RL-429', true],
    [otherLane, 'RL-429: a burst [late-a] @RL-429', false],
  ] as const)
    expect(project?.share?.test(title), `${project?.name}: ${title}`).toBe(runs);
  expect(others?.without?.test('PAG-LIMIT-MAX: limit 25 [late-c] @PAG-LIMIT-MAX')).toBe(true);
  expect(others?.without?.test('PAG-LIMIT-MAX: limit 25 [plain-b] @PAG-LIMIT-MAX')).toBe(false);
  // Without waiting targets, or with one target, the plan's projects as they are.
  const plain = runPlan(runTargets(matrix([{ name: 'a' }, { name: 'b' }])), true, shares);
  expect(apartFromTheWaiting(plain, 2, { names: [], workers: 0 })).toEqual({
    projects: plain.projects,
    addedWorkers: 0,
  });
  const alone = runPlan(runTargets(matrix([{ name: 'late' }])), true, shares);
  expect(apartFromTheWaiting(alone, 1, { names: ['late'], workers: 4 })).toEqual({
    projects: alone.projects,
    addedWorkers: 0,
  });
});

test("a matrix run's waiting targets' tests are each declared once, in the waiting project or lane", () => {
  const entries = [
    { name: 'late-a', variants: ['slow'], env: { CONFORMANCE_WORKERS: '4' }, waits: true },
    { name: 'plain-b', variants: ['nulls-for-absent'] },
  ];
  const apart = listed(matrix(entries));
  const together = listed(matrix(entries.map(({ waits: _waits, ...entry }) => entry)));
  const target = (line: string) => line.split(' → ')[1];
  // The same registrations; only late-a's projects differ.
  expect(apart.map((line) => line.replace(/^[^:]+:/, '')).sort()).toEqual(
    together.map((line) => line.replace(/^[^:]+:/, '')).sort(),
  );
  for (const line of apart)
    expect(line).toMatch(
      target(line) === 'late-a'
        ? /^(conformance|isolated) \(waiting\): /
        : /^(conformance|isolated|isolated 2): /,
    );
});
