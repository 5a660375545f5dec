// `physiology-conformance check-recording FILE...`: checks recorded traffic, sends nothing
// (src/cli/check-recording.ts).
import type { Command } from 'commander';
import { exitWith, subcommand, withEnvFile } from './common.ts';

export const checkRecordingCommand = (): Command =>
  withEnvFile(
    subcommand(
      'check-recording',
      'Check recorded exchanges (HAR 1.2 or NDJSON) against the contract; sends nothing, writes reports/.',
      [
        [0, 'PASS'],
        [1, 'FAIL'],
        [3, 'INCOMPLETE'],
      ],
    ),
  )
    .argument('<files...>', 'HAR or NDJSON files')
    .action(async (files: string[]) => {
      const { checkRecording } = await import('../check-recording.ts');
      await exitWith('check-recording', () => checkRecording(files));
    });
