// A conformance test states its requirement once (issue 12): it is declared through verifies(), and no
// requirement ID of the catalogue is written more than once in its source, the call
// `test(...verifies(…), body)` and everything inside it. A requirement the test also reports is declared in
// `also` by a name the assertion shares, not written again. The sources are read with a TypeScript parser
// (Babel's, pure JS), so a comment or a longer string that mentions an ID does not count, and a template piece does.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from '@babel/parser';
import type { CallExpression } from '@babel/types';
import { expect, test } from '@playwright/test';
import { requirements } from '../../src/contract/requirements.ts';
import { nodesOf } from './syntax-tree.ts';

const CONFORMANCE_DIR = new URL('../conformance/', import.meta.url);
const specFiles = readdirSync(CONFORMANCE_DIR)
  .filter((name) => name.endsWith('.spec.ts'))
  .sort();

const requirementIds = new Set(requirements.map((requirement) => requirement.id));

/** The requirement ID a string literal or template piece writes: the ID itself, or its tag `@ID`. */
const writtenId = (text: string | null): string | undefined => {
  const id = text?.startsWith('@') ? text.slice(1) : text;
  return id && requirementIds.has(id) ? id : undefined;
};

/** Modifiers that declare a test when given a body (`test.skip(condition, reason)` inside a test does not). */
const DECLARING_MODIFIERS = new Set(['only', 'skip', 'fixme', 'fail']);

function declaresTest(call: CallExpression): boolean {
  const { callee } = call;
  if (callee.type === 'Identifier') return callee.name === 'test';
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  if (callee.object.name !== 'test' || callee.property.type !== 'Identifier') return false;
  const body = call.arguments.at(-1);
  return (
    DECLARING_MODIFIERS.has(callee.property.name) &&
    (body?.type === 'ArrowFunctionExpression' || body?.type === 'FunctionExpression')
  );
}

/** `test(...verifies(…), body)`: the title and details spread from one verifies() call. */
function usesVerifies(call: CallExpression): boolean {
  const [first] = call.arguments;
  return (
    first?.type === 'SpreadElement' &&
    first.argument.type === 'CallExpression' &&
    first.argument.callee.type === 'Identifier' &&
    first.argument.callee.name === 'verifies'
  );
}

/**
 * The tests `source` declares, and each of them that is not declared through verifies() or writes an ID
 * twice, as `file:line: …`.
 */
function readTests(file: string, source: string): { count: number; offending: string[] } {
  const { program } = parse(source, { sourceType: 'module', plugins: ['typescript'], sourceFilename: file });
  const tests: { start: number; end: number; verifies: boolean }[] = [];
  const written: { id: string; start: number }[] = [];
  for (const node of nodesOf(program)) {
    const at = node.start ?? 0;
    if (node.type === 'CallExpression' && (declaresTest(node) || usesVerifies(node)))
      // A call that spreads verifies() declares a test whatever the test function is named.
      tests.push({ start: at, end: node.end ?? at, verifies: usesVerifies(node) });
    const text =
      node.type === 'StringLiteral'
        ? node.value
        : node.type === 'TemplateElement'
          ? node.value.cooked
          : undefined;
    const id = writtenId(text ?? null);
    if (id) written.push({ id, start: at });
  }

  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;
  const offending = tests.flatMap(({ start, end, verifies }) => {
    const problems = verifies ? [] : ['not declared through verifies()'];
    const lines = new Map<string, number[]>();
    for (const { id, start: at } of written) {
      if (at >= start && at < end) lines.set(id, [...(lines.get(id) ?? []), lineOf(at)]);
    }
    for (const [id, at] of lines) {
      if (at.length > 1) problems.push(`writes ${id} ${at.length} times (lines ${at.join(', ')})`);
    }
    return problems.map((problem) => `${file}:${lineOf(start)}: ${problem}`);
  });
  return { count: tests.length, offending };
}

for (const name of specFiles) {
  test(`tests/conformance/${name}: every test is declared through verifies() and writes each requirement ID once`, () => {
    const file = `tests/conformance/${name}`;
    const { count, offending } = readTests(file, readFileSync(new URL(name, CONFORMANCE_DIR), 'utf8'));
    expect(count, `${file} declares no test the parser recognises`).toBeGreaterThan(0);
    expect(offending, offending.join('\n')).toEqual([]);
  });
}

test('a test that writes an ID twice, or is not declared through verifies(), is reported with its line', () => {
  const source = [
    "test(...verifies('PAUTH-TOKEN-TYPE', 'once'), async ({ verdict }) => verdict.note('fine'));",
    "test(...verifies('PAUTH-TOKEN-TYPE', 'twice'), async () => {",
    "  expectThat('PAUTH-TOKEN-TYPE', true, 'the ID again');",
    '  note(`PAUTH-EXPIRES-IN`, `PAUTH-EXPIRES-IN: in a longer piece, not counted`);',
    "  note('@PAUTH-EXPIRES-IN', 'a tag writes it too');",
    '});',
    "test('PAUTH-EXPIRES-IN: undeclared', { tag: ['@PAUTH-EXPIRES-IN'] }, async () => {",
    "  test.skip(true, 'a runtime skip is no test');",
    "  expectThat('PAUTH-EXPIRES-IN', true, 'the ID again');",
    '});',
    "test.fixme('a modifier with a body declares a test too', async () => {});",
    "check(...verifies('PAUTH-TOKEN-TYPE', 'another test function'), async () => note('PAUTH-TOKEN-TYPE'));",
  ].join('\n');
  expect(readTests('example.spec.ts', source)).toEqual({
    count: 5,
    offending: [
      'example.spec.ts:2: writes PAUTH-TOKEN-TYPE 2 times (lines 2, 3)',
      'example.spec.ts:2: writes PAUTH-EXPIRES-IN 2 times (lines 4, 5)',
      'example.spec.ts:7: not declared through verifies()',
      'example.spec.ts:7: writes PAUTH-EXPIRES-IN 2 times (lines 7, 9)',
      'example.spec.ts:11: not declared through verifies()',
      'example.spec.ts:12: writes PAUTH-TOKEN-TYPE 2 times (lines 12, 12)',
    ],
  });
});
