// `physiology-conformance sandbox`: the embedded sandbox on a port of its own (sandbox/cli.ts).
import type { Command } from 'commander';
import type { SandboxOptions } from '../../../sandbox/cli.ts';
import { exitWith, subcommand } from './common.ts';

/** Where the sandbox listens, its environment, its data and its rate limits. */
const withServingOptions = (command: Command): Command =>
  command
    .option('--port <n>', 'port to listen on (0 picks a free port)', '4010')
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--environment <env>', 'non-production or production', 'non-production')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option(
      '--rate-limit <N/SECONDS,...>',
      'requests per window per client (default 2000/60); several fixed windows, e.g. 100/60,10000/86400: a request is served only when every one allows it',
    )
    .option(
      '--rate-limit-headers <style>',
      'default: X-RateLimit-Limit/-Remaining/-Reset, and Retry-After on a 429; production: X-RateLimit-Limit lists every policy after the governing limit ("100, 100;window=60, 10000;window=86400"), and a 429 has no Retry-After; windowless: production\'s without the window (X-RateLimit-Limit the governing limit alone), no Retry-After',
      'default',
    );

/** The faults and conforming variants it runs, and their lists. */
const withFaultAndVariantOptions = (command: Command): Command =>
  command
    .option('--faults <a,b,c>', 'inject faults (see --list-faults)', '')
    .option('--list-faults', 'print every fault with the requirement it breaks, then exit', false)
    .option(
      '--variants <a,b,c>',
      'run conforming variants, behaviours the seed allows (see --list-variants)',
      '',
    )
    .option(
      '--list-variants',
      'print every variant with what it changes and the seed text allowing it, then exit',
      false,
    );

/** Its sign-in pages. */
const withSignInOptions = (command: Command): Command =>
  command
    .option(
      '--realistic-login',
      "a real server's sign-in: script-rendered login form with CSRF, consent step, client authentication by HTTP Basic only (what login drives)",
      false,
    )
    .option(
      '--login-page <name>',
      'the served sign-in page otherwise: plain (one form, "Allow access"), french, consent (a French login, then a consent page with an icon allow button, the refusal first), enter-only (a form with no button), identifier-first (the e-mail, then the password, then consent), checkboxes (the same, the consent listing the scopes as ticked checkboxes under a nameless "Allow" input), second-factor (the password, then a code sent by e-mail: GET /sandbox/mail shows it, then consent)',
      'plain',
    )
    .option('--captcha-from <n>', 'the plain login page asks for a captcha too from the n-th sign-in on')
    .option(
      '--captcha-for <usernames>',
      'the plain login page asks these users (comma-separated) for a captcha too, once their username is posted',
    );

/** HTTPS, its tokens' lifetime, its users' activity and history, and its request log. */
const withTlsTokenAndActivityOptions = (command: Command): Command =>
  command
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', 'the private key of --tls-cert (PEM)')
    .option('--token-lifetime <seconds>', 'lifetime of the access tokens issued', '3600')
    .option(
      '--user-activity <ms>',
      "every MS each user's data changes on its own: a webhook to each client with a registered receiver (0: never)",
      '0',
    )
    .option(
      '--history-days <n>',
      "days of history each user has at least (a long-standing account: 1100); a run's request count must not grow with it",
      '150',
    )
    .option('--log', 'print one line per request', false);

export const sandboxCommand = (): Command =>
  [withServingOptions, withFaultAndVariantOptions, withSignInOptions, withTlsTokenAndActivityOptions]
    .reduce(
      (command, withOptions) => withOptions(command),
      subcommand(
        'sandbox',
        'Start the sandbox: a conforming server with fixed credentials (sandbox/sandbox.env).',
        [
          [0, 'stopped by SIGINT or SIGTERM, or listed'],
          [1, 'did not close cleanly'],
        ],
      ),
    )
    .action(async (options: SandboxOptions) => {
      const { serveSandbox } = await import('../../../sandbox/cli.ts');
      await exitWith('sandbox', () => serveSandbox(options));
    });
