// What every subcommand shares: --version, its exit statuses in --help, options that set a CONFORMANCE_*
// variable for this process and the processes it starts, and how a failure ends (one line, no stack trace).
import { Command } from 'commander';
import { redactText } from '../../http/redact.ts';
import { packageVersion } from '../../run-state/package.ts';
import { EXIT_STATUSES } from '../../runner/report/exit-statuses.ts';
import { messageOf } from '../../text/error-message.ts';

/** Usage, configuration and input errors: the status every subcommand shares. */
const USAGE_ERROR = EXIT_STATUSES.configuration;

export type ExitStatuses = readonly (readonly [code: number | string, meaning: string])[];

/** --version, and a usage error (unknown option, missing argument) ends with status 2, as a configuration error. */
export const withUsageErrors = (command: Command): Command =>
  command
    .version(packageVersion())
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_ERROR.code));

/** A subcommand with --version and its exit statuses documented under its --help. */
export function subcommand(name: string, description: string, statuses: ExitStatuses): Command {
  const all = [...statuses, [USAGE_ERROR.code, USAGE_ERROR.meaning] as const].sort(
    ([a], [b]) => Number.parseInt(String(a), 10) - Number.parseInt(String(b), 10),
  );
  const width = Math.max(...all.map(([code]) => String(code).length));
  return withUsageErrors(new Command(name))
    .description(description)
    .addHelpText(
      'after',
      `\nExit status:\n${all.map(([code, meaning]) => `  ${String(code).padEnd(width)}  ${meaning}`).join('\n')}`,
    );
}

/** `--env-file <file>`: CONFORMANCE_ENV_FILE, the file of variables under the environment. */
export const withEnvFile = (command: Command): Command =>
  command
    .option('--env-file <file>', 'a file of CONFORMANCE_* variables (sets CONFORMANCE_ENV_FILE)')
    .hook('preAction', (self) => {
      const file = self.opts<{ envFile?: string }>().envFile;
      if (file !== undefined) process.env.CONFORMANCE_ENV_FILE = file;
    });

/** Runs a subcommand's work to its exit status; an error it did not handle ends in one line. */
export async function exitWith(name: string, work: () => Promise<number> | number): Promise<never> {
  let code: number;
  try {
    code = await work();
  } catch (error) {
    console.error(`${name}: ${redactText(messageOf(error))}`);
    code = USAGE_ERROR.code;
  }
  process.exit(code);
}
