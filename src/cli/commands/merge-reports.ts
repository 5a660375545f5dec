// `physiology-conformance merge-reports DIR...`: a sharded run's blob reports as one run (src/cli/merge-reports.ts).
import type { Command } from 'commander';
import { read } from '../../config/variables.ts';
import { EXIT_STATUSES, SIGNAL_STATUS } from '../../report/exit-statuses.ts';
import { exitWith, subcommand, withEnvFile } from './common.ts';

export const mergeReportsCommand = (): Command =>
  withEnvFile(
    subcommand(
      'merge-reports',
      "Merge the blob reports of a sharded run (`run --shard i/n` in each job) into the run's reports: one conformance.json and its forms, one verdict. Set the run's CONFORMANCE_* variables here too, so the report names the target.",
      [
        ...(['pass', 'fail', 'incomplete', 'error'] as const).map(
          (verdict) => [EXIT_STATUSES[verdict].code, EXIT_STATUSES[verdict].meaning] as const,
        ),
        [SIGNAL_STATUS.code, SIGNAL_STATUS.meaning],
      ],
    ),
  )
    .argument('<dirs...>', "folders holding the shards' blob reports (report-*.zip, in them or below)")
    .action(async (dirs: string[]) => {
      const [{ mergeReports }, { resolveEnvironment }] = await Promise.all([
        import('../merge-reports.ts'),
        import('../../config/environment.ts'),
      ]);
      await exitWith('merge-reports', () => {
        const environment = resolveEnvironment();
        return mergeReports(dirs, {
          allureReport: read(environment, 'CONFORMANCE_ALLURE_REPORT'),
          allowIncomplete: read(environment, 'CONFORMANCE_ALLOW_INCOMPLETE'),
        });
      });
    });
