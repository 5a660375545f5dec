// `physiology-conformance run`: the conformance run (src/cli/conformance.ts). Options it does not know, and
// everything after `--`, go to Playwright test.
import { type Command, InvalidArgumentError } from 'commander';
import { profileList } from '../../config/profiles.ts';
import { variablesHelp } from '../../config/variables-doc.ts';
import { RUN_VERDICTS } from '../../result/outcomes.ts';
import { builtPlaywrightVariables, suiteModule } from '../../run-state/package.ts';
import { EXIT_STATUSES, SIGNAL_STATUS } from '../../runner/report/exit-statuses.ts';
import { type ExitStatuses, exitWith, subcommand, withEnvFile } from './common.ts';

/** Every CONFORMANCE_* variable, from the table (src/config/variables.ts): the run's and the command's help. */
export const variablesHelpText = (): string =>
  `\nVariables (the environment wins over --env-file):\n\n${variablesHelp()}`;

/** What a selection does to the verdict (src/config/selection.ts, src/runner/report/build-report.ts). */
const NARROWED_HELP = `
A narrowed run (CONFORMANCE_GREP, or after --: --grep, --grep-invert, --project, --last-failed,
--only-changed, --test-list, --test-list-invert, test-file filters, --shard judged alone rather than merged
with merge-reports) runs part of its profile: it ends INCOMPLETE (exit 3) at best, never PASS, in every
profile; a failure it sees is still a FAIL. The report records the selection (the certification digest
covers it), and verify-report refuses it. CONFORMANCE_ALLOW_INCOMPLETE=1 lets a narrowed ci-gate or smoke
run exit 0, never a narrowed certification. The smoke profile's own @smoke tests are the profile, not a
narrowing (CONFORMANCE_GREP=@smoke narrows nothing there).`;

/** Every report a run writes, and how to get the one it writes only when asked (docs/reports.md). */
const REPORTS_HELP = `
Reports (in CONFORMANCE_REPORTS_DIR, default reports/): the verdict on the console, in conformance.md and in
conformance.json; the page of the run, index.html, and its requirement history, requirement-history.jsonl;
junit.xml; Playwright's HTML report, html/index.html; the Allure results, allure-results/,
and history, allure-history.jsonl; the Allure HTML report, allure/index.html, with CONFORMANCE_ALLURE_REPORT=1.`;

/** `--shard i/n`: 1 ≤ i ≤ n. */
function shardOption(text: string): string {
  const [, current, total] = /^(\d+)\/(\d+)$/.exec(text) ?? [];
  if (!current || !total || Number(current) < 1 || Number(current) > Number(total))
    throw new InvalidArgumentError('i/n, with 1 ≤ i ≤ n (e.g. 2/4)');
  return text;
}

/** The exit statuses of a run, and of the merge of a sharded one: its verdict's (by code), or a signal's. */
export const RUN_EXIT_STATUSES: ExitStatuses = [
  ...RUN_VERDICTS.map(
    (verdict) => [EXIT_STATUSES[verdict].code, EXIT_STATUSES[verdict].meaning] as const,
  ).sort(([a], [b]) => a - b),
  [SIGNAL_STATUS.code, SIGNAL_STATUS.meaning],
];

/** Asked of Playwright, help would still render the last run's Allure report: the run's help answers it. */
const HELP = new Set(['--help', '-h']);

export function runCommand(): Command {
  const command = withEnvFile(
    subcommand(
      'run',
      'Run the conformance suite against CONFORMANCE_BASE_URL, or against the embedded sandbox when unset.',
      RUN_EXIT_STATUSES,
    ),
  )
    .option('--profile <name>', `${profileList()} (sets CONFORMANCE_PROFILE)`)
    .option(
      '--shard <i/n>',
      "run the i-th of n shards (a CI matrix job each): its blob report goes to reports/blob-report (PLAYWRIGHT_BLOB_OUTPUT_DIR) for merge-reports, which gives the verdict; it spends 1/n of the target's rate budgets, which the shards share",
      shardOption,
    )
    .option(
      '--explore',
      'an exploring run (sets CONFORMANCE_EXPLORE=1): a new seed, printed; what fails is shrunk and added to the failure store',
    )
    .argument('[playwright-options...]', 'options for Playwright test, after --, e.g. -- --workers 4')
    .allowUnknownOption()
    .addHelpText('after', REPORTS_HELP)
    .addHelpText('after', NARROWED_HELP)
    .addHelpText('after', variablesHelpText)
    .action(
      async (
        playwrightOptions: string[],
        options: { profile?: string; explore?: boolean; shard?: string },
      ) => {
        if (playwrightOptions.some((option) => HELP.has(option))) command.help();
        // `--profile ""` too: an empty value is refused by name, never read as the default.
        if (options.profile !== undefined) process.env.CONFORMANCE_PROFILE = options.profile;
        if (options.explore) process.env.CONFORMANCE_EXPLORE = '1';
        Object.assign(process.env, builtPlaywrightVariables());
        const { runConformance } = await import('../conformance.ts');
        const config = suiteModule('playwright.config.ts');
        await exitWith('run', () => runConformance(['-c', config, ...playwrightOptions], options.shard));
      },
    );
  return command;
}
