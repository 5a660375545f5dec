// The exit statuses of the suite's commands, with what each means: the one table the console's last line,
// every subcommand's --help and the README's verdict table (npm run docs:tables) read.

import type { RunVerdict } from '../../result/schema.ts';

export type { RunVerdict };

interface ExitStatus {
  code: number;
  /** One line: the console's end and --help. */
  meaning: string;
  /** The README's verdict table: its verdict and when it applies (Markdown). */
  verdict: string;
  when: string;
}

export const EXIT_STATUSES = {
  fail: {
    code: 1,
    meaning: 'FAIL: the server broke a stated rule, whatever else happened',
    verdict: 'FAIL',
    when: 'a MUST requirement failed (documented deviations aside), or an expected failure stopped happening, whatever else happened: a run that was also cut short by a run error says so after the failures ("the run was cut short: …; N checks not verified")',
  },
  error: {
    code: 4,
    meaning:
      "ERROR: nothing failed, and the run could not judge the target (the suite's or the user's side: an unreachable target, refused credentials, no browser...)",
    verdict: 'ERROR',
    when: "nothing failed, and the run could not judge the target, for a cause on the suite's or the user's side: a target that cannot be reached at all, credentials it refuses at the first token request or sign-in, no browser (or a crashed one) where the first sign-in needs one, a local port in use, the suite's own crash. Said first, with what to do; what it stopped is *not verified (blocked by the run error)*, never failed. Found before the first test where it can be (a preflight of a handful of requests in global setup: the run then ends in seconds)",
  },
  configuration: {
    code: 2,
    meaning: 'usage, configuration or input error (one line saying which)',
    verdict: 'ERROR (configuration)',
    when: 'a variable is malformed, missing, or set but empty: one line naming it and where it was set (the environment, or the file and line), no stack trace; or a usage error of the command',
  },
  incomplete: {
    code: 3,
    meaning:
      'INCOMPLETE: nothing failed, but a verifiable MUST requirement of the profile was not verified, or the run was narrowed',
    verdict: 'INCOMPLETE',
    when: 'nothing failed, but a verifiable MUST requirement in the profile was not verified (or the run budget ran out); the report lists each with its reason. A run-side cause that only some checks meet stops those checks alone, listed beside the verdict: a sign-in of a user that needs a person (a captcha, a second factor), from the first page or mid-run, stops the checks that need that user. Also a narrowed run, whatever it saw, in every profile: a selection (`CONFORMANCE_GREP`, `--grep`, a test file, `--last-failed`, `--project`, a shard judged alone...) runs part of the profile, and the report lists what it did not run ([selecting tests](docs/profiles-and-targets.md#selecting-tests); the `@smoke` tests of the smoke profile are no selection). `CONFORMANCE_ALLOW_INCOMPLETE=1` makes it exit 0, except a narrowed certification',
  },
  pass: {
    code: 0,
    meaning: 'PASS: every verifiable MUST requirement of the profile passed',
    verdict: 'PASS',
    when: 'every verifiable MUST requirement in the profile passed (warnings allowed; one this data cannot show is listed, never counted), and the whole profile ran',
  },
} as const satisfies Record<RunVerdict | 'configuration', ExitStatus>;

/** A command's status by verdict: `EXIT_CODES.fail` is 1. */
export const EXIT_CODES = Object.fromEntries(
  Object.entries(EXIT_STATUSES).map(([name, status]) => [name, status.code]),
) as { readonly [Name in keyof typeof EXIT_STATUSES]: (typeof EXIT_STATUSES)[Name]['code'] };

/** A run stopped by a signal still writes its reports; its status is the signal's. */
export const SIGNAL_STATUS = {
  code: '130/143',
  meaning: 'stopped by SIGINT/SIGTERM (every report still written)',
};

/** The console's last line for a verdict: `exit 1: FAIL: …`. */
export const exitLine = (name: keyof typeof EXIT_STATUSES): string =>
  `exit ${EXIT_STATUSES[name].code}: ${EXIT_STATUSES[name].meaning}`;

/** The README's verdict table, in the order the verdicts outrank each other. */
const verdictTable = (): string =>
  [
    '| verdict | when | exit |',
    '|---|---|---|',
    ...Object.values(EXIT_STATUSES).map(
      ({ verdict, when, code }) => `| ${verdict} | ${when.replace(/\|/g, '\\|')} | ${code} |`,
    ),
  ].join('\n');

const MARKED = /(<!-- exit-statuses:begin -->\n)[\s\S]*?(<!-- exit-statuses:end -->)/;

/** A document (the README) with its marked verdict table generated again. */
export const withVerdictTable = (doc: string): string =>
  doc.replace(MARKED, (_all, begin: string, end: string) => `${begin}${verdictTable()}\n${end}`);
