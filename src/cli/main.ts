// `physiology-conformance`: the suite's one command (the package's bin; the npm scripts are its aliases).
// Each subcommand loads its work only when it runs, so --help and --version start nothing.
import { Command } from 'commander';
import { checkRecordingCommand } from './commands/check-recording.ts';
import { withUsageErrors } from './commands/common.ts';
import { doctorCommand } from './commands/doctor.ts';
import { loginCommand } from './commands/login.ts';
import { mergeReportsCommand } from './commands/merge-reports.ts';
import { renderCommand } from './commands/render.ts';
import { runCommand, variablesHelpText } from './commands/run.ts';
import { sandboxCommand } from './commands/sandbox.ts';
import { verifyReportCommand } from './commands/verify-report.ts';
import { verifyWebhookCommand } from './commands/verify-webhook.ts';

const program = withUsageErrors(new Command('physiology-conformance'))
  .description('Contract-conformance suite of the Physiology Data and Partner Lab Service.')
  .addHelpText('after', variablesHelpText);

for (const command of [
  runCommand(),
  mergeReportsCommand(),
  doctorCommand(),
  loginCommand(),
  checkRecordingCommand(),
  verifyReportCommand(),
  renderCommand(),
  verifyWebhookCommand(),
  sandboxCommand(),
])
  program.addCommand(command);

await program.parseAsync();
