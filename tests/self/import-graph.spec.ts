// Import boundaries and circles, read from the import statements of sandbox/ and src/ (import-graph.ts):
// the sandbox is independent of the suite (issue 12: the oracle shares no code with the checker), the
// suite reaches the sandbox only where it starts it, no module imports itself back through others, the
// worker and runner wings import nothing of each other, and nothing but the command line (src/cli/main.ts
// and its src/cli/commands/) imports a command.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { importCircles, importGraph, importsOf } from './import-graph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const graph = importGraph(root, ['sandbox', 'src']);

/** The files under `from` that import a file under `to`, with what they import there. */
const importsAcross = (from: string, to: string): string[] =>
  [...graph]
    .filter(([file]) => file.startsWith(`${from}/`))
    .flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(`${to}/`)).map((target) => `${file} → ${target}`),
    );

test('the parser reads every kind of import, type-only and re-exports included', () => {
  const source = [
    "import type { A } from './a.ts';",
    "import { b, type B } from '../b.ts';",
    "export { c } from './c.ts';",
    "export type * from './d.ts';",
    "const e = await import('./e.ts');",
    "import { f } from 'fastify';",
  ].join('\n');
  expect(importsOf('x.ts', source).sort()).toEqual([
    '../b.ts',
    './a.ts',
    './c.ts',
    './d.ts',
    './e.ts',
    'fastify',
  ]);
});

test('the circle finder reports each circle once, with its path, and nothing else', () => {
  const fed = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'x.ts']],
    ['c.ts', ['a.ts']],
    ['x.ts', ['y.ts']],
    ['y.ts', []],
    ['self.ts', ['self.ts']],
  ]);
  expect(importCircles(fed)).toEqual([
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ['self.ts', 'self.ts'],
  ]);
  expect(
    importCircles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', []],
      ]),
    ),
  ).toEqual([]);
});

test('the graph covers sandbox/ and src/', () => {
  expect([...graph.keys()].filter((file) => file.startsWith('sandbox/')).length).toBeGreaterThan(50);
  expect([...graph.keys()].filter((file) => file.startsWith('src/')).length).toBeGreaterThan(50);
  expect(graph.get('sandbox/app.ts')).toContain('sandbox/context.ts');
});

test('the sandbox imports nothing from src/ (it owns its literals; sandbox-routes.spec.ts catches drift)', () => {
  expect(importsAcross('sandbox', 'src')).toEqual([]);
});

test('the suite reaches the sandbox only from the commands, the developer scripts and the global setup that start it', () => {
  const startsTheSandbox = (file: string) =>
    file.startsWith('src/cli/') || file.startsWith('src/dev/') || file === 'src/runner/run/global-setup.ts';
  expect(
    importsAcross('src', 'sandbox').filter((line) => !startsTheSandbox(line.split(' → ')[0] ?? '')),
  ).toEqual([]);
});

test('src/config/ imports nothing from src/auth/ (auth reads the configuration, never the reverse)', () => {
  expect(importsAcross('src/config', 'src/auth')).toEqual([]);
});

test('src/runner/report/ imports nothing from src/auth/ (the reporter reads the run manifest, never resolves the configuration)', () => {
  expect(importsAcross('src/runner/report', 'src/auth')).toEqual([]);
});

/** The wings of src/: the rooms of the processes Playwright starts, each a folder of its wing. */
const WINGS = ['worker', 'runner'];

/**
 * The room of a file of src/: its folder (`config`), or in a wing the wing's folder (`worker/suite`); files at
 * src/'s root count as one room, '.'.
 */
function roomOf(file: string): string {
  const [, first, second, ...rest] = file.split('/');
  if (!first || second === undefined) return '.';
  return WINGS.includes(first) && rest.length > 0 ? `${first}/${second}` : first;
}

/** The rooms of src/ and the rooms each imports. */
function folderGraph(): Map<string, Set<string>> {
  const folderOf = roomOf;
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!file.startsWith('src/')) continue;
    const from = folderOf(file);
    const into = folders.get(from) ?? new Set<string>();
    folders.set(from, into);
    for (const target of targets)
      if (target.startsWith('src/') && folderOf(target) !== from) into.add(folderOf(target));
  }
  return folders;
}

test('the folders of src/ stand on floors: no pair imports each other, and no longer circle', () => {
  const folders = folderGraph();
  const pairs = [...folders].flatMap(([from, into]) =>
    [...into].filter((to) => from < to && folders.get(to)?.has(from)).map((to) => `${from} ↔ ${to}`),
  );
  expect(pairs).toEqual([]);
  const asFiles = new Map([...folders].map(([from, into]) => [from, [...into]]));
  const circles = importCircles(asFiles).filter((circle) => circle.length > 3);
  expect(circles.map((circle) => circle.join(' → '))).toEqual([]);
});

test('the wings stand apart: no worker room imports a runner room, no runner room a worker room, and each holds only rooms', () => {
  const rooms = [...folderGraph()];
  const across = rooms.flatMap(([from, into]) =>
    [...into]
      .filter((to) => WINGS.some((wing) => from.startsWith(`${wing}/`) && to.split('/')[0] !== wing))
      .filter((to) => WINGS.includes(to.split('/')[0] ?? ''))
      .map((to) => `${from} → ${to}`),
  );
  expect(across).toEqual([]);
  expect(rooms.map(([room]) => room).filter((room) => WINGS.includes(room))).toEqual([]);
  expect(
    rooms
      .map(([room]) => room)
      .filter((room) => room.startsWith('worker/'))
      .sort(),
  ).toEqual(['worker/partner-data', 'worker/session', 'worker/suite', 'worker/user-data', 'worker/verdict']);
});

test('src/run-state/ is the ground floor: the run-wide leaves import nothing else of the suite', () => {
  expect([...(folderGraph().get('run-state') ?? [])]).toEqual([]);
});

test('no import circles in sandbox/ or src/', () => {
  expect(importCircles(graph).map((circle) => circle.join(' → '))).toEqual([]);
});

test('src/cli/ holds only commands: nothing but the command line imports one', () => {
  const everywhere = importGraph(root, ['sandbox', 'src', 'tests']);
  const commandLine = (file: string) => file === 'src/cli/main.ts' || file.startsWith('src/cli/commands/');
  const intoCommands = [...everywhere]
    .filter(([file]) => !commandLine(file))
    .flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith('src/cli/')).map((target) => `${file} → ${target}`),
    );
  expect(everywhere.size).toBeGreaterThan(200);
  expect(intoCommands).toEqual([]);
});

/** The one module of the suite a spec imports: its face. */
const FACE = 'src/worker/suite/index.ts';

test('a spec imports the suite through its face alone, and the face only hands names on', () => {
  const specs = importGraph(root, ['tests/conformance']);
  const besideTheFace = [...specs].flatMap(([file, targets]) =>
    targets.filter((target) => target !== FACE).map((target) => `${file} → ${target}`),
  );
  expect(specs.size).toBeGreaterThan(20);
  expect(besideTheFace).toEqual([]);
  const face = readFileSync(`${root}${FACE}`, 'utf8');
  const statements = face.split('\n').filter((line) => line !== '' && !line.startsWith('//'));
  expect(statements.join('\n')).toMatch(/^(export (type )?\{[^}]*\} from '[^']+';\s*)+$/);
});

test('docs/layout.md maps every room of src/ on its floor, with the rooms it imports', () => {
  const folders = folderGraph();
  // A room's floor: one above the highest room it imports (the graph has no circle, the test above).
  const floorOf = (folder: string): number =>
    1 + Math.max(0, ...[...(folders.get(folder) ?? [])].map(floorOf));
  const fromCode = [...folders.keys()]
    .filter((folder) => folder !== '.')
    .map((folder) => `${floorOf(folder)} ${folder}: ${[...(folders.get(folder) ?? [])].sort().join(', ')}`)
    .sort();
  const layout = readFileSync(`${root}docs/layout.md`, 'utf8');
  const fromDocs = [...layout.matchAll(/^\| (\d+) \| `src\/([\w/-]+)\/` \| .* \| ([\w, /-]+) \|$/gm)]
    .map(([, floor, folder, imports]) => {
      const rooms = imports === 'none' ? [] : (imports ?? '').split(', ').sort();
      return `${floor} ${folder}: ${rooms.join(', ')}`;
    })
    .sort();
  expect(fromDocs).toEqual(fromCode);
});
