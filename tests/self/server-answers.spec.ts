// A server's answer never becomes the suite's error: every read of a body goes through the verdict
// (src/worker/verdict/verdicts.ts `json` and its kin) or `bodyOf`, which never throws, and no plain Error is thrown
// on an answer. A static scan of src/ and tests/conformance/; what it matches is stated below, and each file
// it leaves out says why. Exchange has no throwing json() at all: the compiler holds that part.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { packageRoot } from '../../src/run-state/package.ts';

/** Files whose matches are not answers becoming the suite's error, and why. */
const LEFT_OUT: Record<string, string> = {
  'src/cli/doctor.ts':
    "the doctor's checks: every error of one is that check's line of its report, on the side it names (recordCheck), never a run's",
  'src/dev/': "the developers' scripts, which talk to the project's own sandbox, never a target under test",
};

/** What names a server's answer in a thrown message: the exchange's helpers, its names, its members. */
const NAMES_AN_ANSWER =
  /describeExchange\(|exchangeLine\(|\b(exchange|answer|response)\b|\.(status|text|headers)\b/;

interface Match {
  at: string;
  what: string;
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });

/** The text of the call whose opening parenthesis is at `open`, parentheses balanced. */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let end = open; end < source.length; end++) {
    if (source[end] === '(') depth++;
    else if (source[end] === ')' && --depth === 0) return source.slice(open, end + 1);
  }
  return source.slice(open);
}

/**
 * The matches in one file's source: a `throw new Error(…)` whose arguments name an answer; a `.json()` call
 * without arguments (the body read that throws, of a fetch Response); a `JSON.parse(…)` of a `.text` member.
 */
export function answerErrors(file: string, source: string): Match[] {
  const line = (index: number) => `${file}:${source.slice(0, index).split('\n').length}`;
  const thrown = [...source.matchAll(/throw new Error\(/g)].flatMap((match) => {
    const args = argumentsAt(source, match.index + match[0].length - 1);
    return NAMES_AN_ANSWER.test(args)
      ? [{ at: line(match.index), what: `throw new Error${args.slice(0, 80)}` }]
      : [];
  });
  const reads = [...source.matchAll(/\.json(<[^>()]*>)?\(\)/g)].map((match) => ({
    at: line(match.index),
    what: match[0],
  }));
  const parsed = [...source.matchAll(/JSON\.parse\([^)]*\.text\b/g)].map((match) => ({
    at: line(match.index),
    what: match[0],
  }));
  return [...thrown, ...reads, ...parsed];
}

test('the scan finds what it says it matches', () => {
  const source = [
    "throw new Error('no token: ' + describeExchange(exchange));",
    "throw new Error('the page answered ' + page.status);",
    "throw new Error('unreachable: user-login capability without userLogin');",
    'const body = exchange.json<{ records?: unknown[] }>();',
    'const parsed = JSON.parse(answer.text);',
    'const fine = verdict.json(exchange);',
  ].join('\n');
  expect(answerErrors('x.ts', source).map((match) => match.at)).toEqual([
    'x.ts:1',
    'x.ts:2',
    'x.ts:4',
    'x.ts:5',
  ]);
});

test("no server's answer becomes the suite's error in src/ and tests/conformance/", () => {
  const files = ['src', 'tests/conformance'].flatMap((dir) => tsFiles(join(packageRoot, dir)));
  const scanned = files
    .map((path) => relative(packageRoot, path))
    .filter((file) => !Object.keys(LEFT_OUT).some((left) => file.startsWith(left)));
  expect(scanned.length).toBeGreaterThan(200);
  const found = scanned.flatMap((file) => answerErrors(file, readFileSync(join(packageRoot, file), 'utf8')));
  expect(found.map(({ at, what }) => `${at} ${what}`)).toEqual([]);
});
