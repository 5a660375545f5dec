// `physiology-conformance verify-report FILE`: a certification report's digest (src/cli/verify-report.ts).
import type { Command } from 'commander';
import { exitWith, subcommand } from './common.ts';

export const verifyReportCommand = (): Command =>
  subcommand(
    'verify-report',
    "Check a report against the published result schema, then a certification report's digest against this suite's spec, schemas and version, and its results.",
    [
      [0, 'the digest matches and the verdict is PASS: a certificate'],
      [
        1,
        'the report does not follow the result schema, the digest does not match, the run was narrowed (a selection, a shard), or the verdict is not PASS',
      ],
    ],
  )
    .argument('<report>', 'a conformance.json of the certification profile')
    .action(async (file: string) => {
      const { verifyReport } = await import('../verify-report.ts');
      await exitWith('verify-report', () => verifyReport(file));
    });
