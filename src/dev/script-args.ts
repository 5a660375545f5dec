// The arguments of a developer script (an `npm run` script): each states its usage once, here; `--help`
// prints it and exits 0, and an unknown or malformed argument is one line and the usage, exit 2, never a
// stack trace (the status 2 of every usage error, as the product's command gives it).
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { messageOf } from '../text/error-message.ts';

const asksForHelp = (args: readonly string[]): boolean => {
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  return own.includes('--help') || own.includes('-h');
};

/** The script's parsed arguments (strict: an option it does not state is refused), after `--help`. */
export function scriptArgs<const Config extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  usage: string,
  config: Config = {} as Config,
  args: readonly string[] = process.argv.slice(2),
): ReturnType<typeof parseArgs<Config & { args: string[]; strict: true }>> {
  if (asksForHelp(args)) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ ...config, args: [...args], strict: true });
  } catch (error) {
    const name = /^usage: npm run (\S+)/i.exec(usage)?.[1] ?? 'usage';
    console.error(`${name}: ${messageOf(error)}\n\n${usage}`);
    process.exit(2);
  }
}
