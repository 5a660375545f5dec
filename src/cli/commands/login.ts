// `physiology-conformance login`: signs the test users in once, keeps their grants (src/cli/login.ts).
import { type Command, InvalidArgumentError } from 'commander';
import { exitWith, subcommand, withEnvFile } from './common.ts';

const seconds = (text: string): number => {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('a whole number of seconds');
  return Number(text);
};

export const loginCommand = (): Command =>
  withEnvFile(
    subcommand(
      'login',
      'Sign the test users in (a served form over HTTP, a page built by script in headless Chromium) and keep their grants in the token store (CONFORMANCE_TOKEN_STORE).',
      [
        [0, 'every configured user signed in'],
        [1, 'a sign-in failed'],
      ],
    ),
  )
    .option('--headed', 'a person finishes the sign-in (the URL is printed, the redirect caught)', false)
    .option('--wait <seconds>', 'how long a person may take', seconds, 300)
    .option(
      '--print-token',
      "last, print user A's access token as AUTHORIZATION='Bearer …', for a report's curl (a terminal's, never a CI log's)",
      false,
    )
    .action(async (options: { headed: boolean; wait: number; printToken: boolean }) => {
      const { login } = await import('../login.ts');
      await exitWith('login', () =>
        login({ headed: options.headed, waitSeconds: options.wait, printToken: options.printToken }),
      );
    });
