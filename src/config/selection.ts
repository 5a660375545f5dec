// What narrowed a run to part of its profile: CONFORMANCE_GREP, and the options of `playwright test` that
// select tests. The Playwright configuration records it in the run's metadata, under a key of its own per
// shard, which blob reports carry into `merge-reports`; the reporter reads it back. A narrowed run is never
// a PASS (src/runner/report/build-report.ts), in every profile: the smoke profile's own selection (its @smoke tests)
// is the profile, not a narrowing, and a selection that only restates it is left out.
import { type Profile, profileRow } from './profiles.ts';
import { type Env, read } from './variables.ts';

export interface Shard {
  current: number;
  total: number;
}

/** What one Playwright process of a run was asked to run (its shard apart, the part a selection keeps). */
export interface RunPart {
  selection: string[];
  shard?: Shard;
}

/** How many values an option of `playwright test` takes (its --help: `<x>` one, `[x]` one if given, `<x...>` all). */
type Arity = 'one' | 'optional' | 'all';

/** Every option of `playwright test` that takes a value (tests/self/suite-selection.spec.ts checks its --help). */
export const OPTIONS_WITH_VALUES: Readonly<Record<string, Arity>> = {
  '--add-reporter': 'one',
  '--browser': 'one',
  '-c': 'one',
  '--config': 'one',
  '--debug': 'optional',
  '-g': 'one',
  '--grep': 'one',
  '-G': 'one',
  '--grep-invert': 'one',
  '--global-timeout': 'one',
  '-j': 'one',
  '--workers': 'one',
  '--last-failed-file': 'one',
  '--max-failures': 'one',
  '--only-changed': 'optional',
  '--output': 'one',
  '--project': 'all',
  '--repeat-each': 'one',
  '--reporter': 'one',
  '--retries': 'one',
  '--run-agents': 'one',
  '--shard': 'one',
  '--shuffle': 'optional',
  '--test-list': 'one',
  '--test-list-invert': 'one',
  '--timeout': 'one',
  '--trace': 'one',
  '--tsconfig': 'one',
  '-u': 'optional',
  '--update-snapshots': 'optional',
  '--ui-host': 'one',
  '--ui-port': 'one',
  '--update-source-method': 'one',
};

/** The options that select tests, by the name a selection states them with. */
const SELECTING: Readonly<Record<string, string>> = {
  '-g': '--grep',
  '--grep': '--grep',
  '-G': '--grep-invert',
  '--grep-invert': '--grep-invert',
  '--project': '--project',
  '--last-failed': '--last-failed',
  '--only-changed': '--only-changed',
  '--test-list': '--test-list',
  '--test-list-invert': '--test-list-invert',
};

const isOption = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');

/** One option of a command line with its values, or a test-file filter (`option` undefined). */
interface Given {
  option?: string;
  values: string[];
}

/** The options and test filters of `playwright test`'s arguments, read as its parser (commander) reads them. */
function parsed(args: readonly string[]): Given[] {
  const given: Given[] = [];
  const rest = [...args];
  let collecting: Given | undefined;
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    // Playwright takes what follows `--` for the tests' own arguments, not for test filters.
    if (arg === '--') break;
    if (collecting && !isOption(arg)) {
      collecting.values.push(arg);
      continue;
    }
    collecting = undefined;
    if (!isOption(arg)) {
      given.push({ values: [arg] });
      continue;
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [option, attached] =
      equals > 0
        ? [arg.slice(0, equals), arg.slice(equals + 1)]
        : !arg.startsWith('--') && arg.length > 2
          ? [arg.slice(0, 2), arg.slice(2)]
          : [arg, undefined];
    const arity = OPTIONS_WITH_VALUES[option];
    // A short flag with letters after it (-xj 2): the flag, then the rest as an option of its own.
    if (attached !== undefined && !arity && !arg.startsWith('--')) {
      given.push({ option, values: [] });
      rest.unshift(`-${attached}`);
      continue;
    }
    const entry: Given = { option, values: attached === undefined ? [] : [attached] };
    given.push(entry);
    if (attached !== undefined || !arity) continue;
    const next = rest[0];
    // A value it requires is taken whatever it looks like; an optional one only when it is no option.
    if (next !== undefined && (arity !== 'optional' || !isOption(next)))
      entry.values.push(rest.shift() as string);
    if (arity === 'all') collecting = entry;
  }
  return given;
}

const quoted = (value: string): string => (/^[\w@./:=-]+$/.test(value) ? value : JSON.stringify(value));

/** What a `playwright test` command line (process.argv) selects, and its shard; nothing for another command. */
export function commandLinePart(argv: readonly string[]): RunPart {
  if (argv[2] !== 'test') return { selection: [] };
  const part: RunPart = { selection: [] };
  for (const { option, values } of parsed(argv.slice(3))) {
    if (option === '--shard') {
      const match = /^(\d+)\/(\d+)$/.exec(values[0] ?? '');
      if (match) part.shard = { current: Number(match[1]), total: Number(match[2]) };
      continue;
    }
    const name = option === undefined ? 'test filter' : SELECTING[option];
    if (name) part.selection.push([name, ...values.map(quoted)].join(' '));
  }
  return part;
}

/** The selections that state a profile's own tests, whole: the smoke profile's @smoke. */
const profileOwn = (profile: Profile): string[] => {
  const { ownTag } = profileRow(profile);
  return ownTag ? [`CONFORMANCE_GREP=${ownTag}`, `--grep ${ownTag}`] : [];
};

/**
 * The part of the profile a run's process runs: CONFORMANCE_GREP and its command line's selection, but for
 * a selection that only restates the profile's own (CONFORMANCE_GREP=@smoke in the smoke profile).
 */
export function runPart(env: Env, argv: readonly string[]): RunPart {
  const grep = read(env, 'CONFORMANCE_GREP');
  const { selection, shard } = commandLinePart(argv);
  const own = profileOwn(read(env, 'CONFORMANCE_PROFILE'));
  return {
    selection: [...(grep === undefined ? [] : [`CONFORMANCE_GREP=${quoted(grep)}`]), ...selection].filter(
      (entry) => !own.includes(entry),
    ),
    ...(shard ? { shard } : {}),
  };
}

const METADATA_KEY = 'conformance-run-part';

/** The Playwright configuration's metadata that records the part: a key per shard, which a merge keeps. */
export const partMetadata = (part: RunPart): Record<string, RunPart> => ({
  [part.shard ? `${METADATA_KEY} ${part.shard.current}/${part.shard.total}` : METADATA_KEY]: part,
});

const partsOf = (metadata: Readonly<Record<string, unknown>>): RunPart[] =>
  Object.entries(metadata)
    .filter(([key]) => key.startsWith(METADATA_KEY))
    .map(([, part]) => part as RunPart);

/**
 * The selection of the run a reporter judges, from its configuration's metadata (one part, or one per merged
 * shard) and shard: a shard judged alone is a selection, and so is a merge that lacks a shard.
 */
export function judgedSelection(metadata: Readonly<Record<string, unknown>>, shard: Shard | null): string[] {
  const parts = partsOf(metadata);
  // Run under another configuration: what it selected is unknown, so it is not taken for the whole profile.
  if (parts.length === 0) return ['unknown: the run recorded no selection (not playwright.config.ts)'];
  const selection = [...new Set(parts.flatMap((part) => part.selection))];
  if (shard) return [...selection, `--shard ${shard.current}/${shard.total} (judged alone, not merged)`];
  const shards = parts.flatMap((part) => (part.shard ? [part.shard] : []));
  const total = shards[0]?.total ?? 0;
  const merged = new Set(shards.map((part) => part.current));
  const missing = Array.from({ length: total }, (_, index) => index + 1).filter((n) => !merged.has(n));
  return [...selection, ...missing.map((n) => `--shard ${n}/${total} not merged`)];
}

/**
 * CONFORMANCE_ALLOW_INCOMPLETE lets an INCOMPLETE run exit 0, but not a narrowed certification: a
 * certification covers its whole profile or certifies nothing.
 */
export const incompleteAllowed = (
  allowIncomplete: boolean,
  run: { profile: string; selection: readonly string[] },
): boolean =>
  allowIncomplete && !(profileRow(run.profile)?.selections === 'whole' && run.selection.length > 0);
