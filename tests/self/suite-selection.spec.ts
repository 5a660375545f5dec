// What narrows a run (src/config/selection.ts): Playwright's own command line read as its parser reads it,
// CONFORMANCE_GREP, the shards a merge holds; and what a narrowed run may never be (a PASS, a certificate).
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import {
  commandLinePart,
  incompleteAllowed,
  judgedSelection,
  OPTIONS_WITH_VALUES,
  partMetadata,
  runPart,
} from '../../src/config/selection.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';

const test_ = (...args: string[]) => commandLinePart(['node', 'cli.js', 'test', ...args]);

test('every option of `playwright test` that takes a value is known, as its --help states it', () => {
  const help = execFileSync(process.execPath, [playwrightCli(), 'test', '--help'], { encoding: 'utf8' });
  const stated: Record<string, string> = {};
  for (const [, short, long, value] of help.matchAll(/^ {2}(?:(-\w), )?(--?[\w-]+) ([<[][^>\]]+[>\]])/gm)) {
    const arity = value?.startsWith('[') ? 'optional' : value?.endsWith('...>') ? 'all' : 'one';
    if (long) stated[long] = arity;
    if (short) stated[short] = arity;
  }
  expect(stated).toEqual(OPTIONS_WITH_VALUES);
});

test('the selecting options and test filters, in every form the parser accepts; nothing else', () => {
  expect(test_('--workers', '4', '--reporter=dot', '-x', '--retries', '0', '--headed').selection).toEqual([]);
  expect(test_('--grep', '@PAG-LIMIT-MAX', '-G', '@write').selection).toEqual([
    '--grep @PAG-LIMIT-MAX',
    '--grep-invert @write',
  ]);
  expect(test_('--grep=@A|@B', '-g@C').selection).toEqual(['--grep "@A|@B"', '--grep @C']);
  // A value taken by an option is not a test filter; what follows --project is, until the next option.
  expect(test_('-j', '2', 'tests/conformance/pagination.spec.ts:12').selection).toEqual([
    'test filter tests/conformance/pagination.spec.ts:12',
  ]);
  expect(test_('--project', 'conformance', 'isolated', '--workers', '1').selection).toEqual([
    '--project conformance isolated',
  ]);
  expect(test_('--project=conformance', 'pagination').selection).toEqual([
    '--project conformance',
    'test filter pagination',
  ]);
  // An optional value only when it is no option; after `--`, the tests' own arguments.
  expect(test_('--only-changed', '--last-failed').selection).toEqual(['--only-changed', '--last-failed']);
  expect(test_('--only-changed', 'main').selection).toEqual(['--only-changed main']);
  expect(test_('--shuffle', '7', '--test-list', 'list.txt', '--', 'x.spec.ts').selection).toEqual([
    '--test-list list.txt',
  ]);
  // A short flag with letters after it is the flag, then an option of its own.
  expect(test_('-xg', '@X').selection).toEqual(['--grep @X']);
  expect(test_('--shard=2/3')).toEqual({ selection: [], shard: { current: 2, total: 3 } });
  expect(test_('--shard', '1/2', '--grep', '@X')).toEqual({
    selection: ['--grep @X'],
    shard: { current: 1, total: 2 },
  });
  // Another command (a worker, merge-reports): no selection.
  expect(commandLinePart(['node', 'cli.js', 'merge-reports', 'blobs'])).toEqual({ selection: [] });
  expect(
    runPart({ CONFORMANCE_GREP: '@PAG-LIMIT-MAX(?=\\s|$)' }, ['node', 'cli.js', 'test']).selection,
  ).toEqual(['CONFORMANCE_GREP="@PAG-LIMIT-MAX(?=\\\\s|$)"']);
  // The smoke profile's own selection (@smoke) is the profile, not a narrowing; a user's selection is one.
  const smoke = { CONFORMANCE_PROFILE: 'smoke' };
  expect(
    runPart({ ...smoke, CONFORMANCE_GREP: '@smoke' }, ['node', 'cli.js', 'test', '-g', '@smoke']),
  ).toEqual({ selection: [] });
  expect(
    runPart({ ...smoke, CONFORMANCE_GREP: '@OP-LIST-CYCLES' }, ['node', 'cli.js', 'test']).selection,
  ).toEqual(['CONFORMANCE_GREP=@OP-LIST-CYCLES']);
  expect(runPart({ CONFORMANCE_GREP: '@smoke' }, ['node', 'cli.js', 'test']).selection).toEqual([
    'CONFORMANCE_GREP=@smoke',
  ]);
});

test('a shard judged alone is narrowed; a merge is whole only with every shard', () => {
  const first = partMetadata({ selection: [], shard: { current: 1, total: 2 } });
  const second = partMetadata({ selection: [], shard: { current: 2, total: 2 } });
  expect(judgedSelection(partMetadata({ selection: [] }), null)).toEqual([]);
  expect(judgedSelection(first, { current: 1, total: 2 })).toEqual([
    '--shard 1/2 (judged alone, not merged)',
  ]);
  expect(judgedSelection({ ...first, ...second, actualWorkers: 4 }, null)).toEqual([]);
  expect(judgedSelection(first, null)).toEqual(['--shard 2/2 not merged']);
  const grepped = partMetadata({ selection: ['--grep @X'], shard: { current: 2, total: 2 } });
  expect(judgedSelection({ ...first, ...grepped }, null)).toEqual(['--grep @X']);
  expect(judgedSelection({}, null)).toEqual([expect.stringMatching(/^unknown: /)]);
});

test('CONFORMANCE_ALLOW_INCOMPLETE never lets a narrowed certification exit 0', () => {
  expect(incompleteAllowed(true, { profile: 'ci-gate', selection: ['--grep @X'] })).toBe(true);
  expect(incompleteAllowed(true, { profile: 'certification', selection: ['--grep @X'] })).toBe(false);
  expect(incompleteAllowed(true, { profile: 'certification', selection: [] })).toBe(true);
  expect(incompleteAllowed(false, { profile: 'ci-gate', selection: [] })).toBe(false);
});
