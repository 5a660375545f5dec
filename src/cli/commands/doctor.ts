// `physiology-conformance doctor`: the preflight of a configuration (src/cli/doctor.ts).
import type { Command } from 'commander';
import { exitWith, subcommand, withEnvFile } from './common.ts';

export const doctorCommand = (): Command =>
  withEnvFile(
    subcommand(
      'doctor',
      'Check the configuration against the target (at most 12 requests, no write) and say what a run will verify.',
      [
        [0, 'ready to run'],
        [1, 'a check failed (one line per problem)'],
      ],
    ),
  ).action(async () => {
    const { doctor } = await import('../doctor.ts');
    await exitWith('doctor', doctor);
  });
