// `physiology-conformance verify-webhook`: a received webhook's signature (src/cli/verify-webhook.ts).
import type { Command } from 'commander';
import type { VerifyWebhookOptions } from '../verify-webhook.ts';
import { exitWith, subcommand, withEnvFile } from './common.ts';

export const verifyWebhookCommand = (): Command =>
  withEnvFile(
    subcommand(
      'verify-webhook',
      "Verify a webhook body (standard input, byte for byte) against its signature, under the suite's scheme (CONFORMANCE_SIGNATURE_*).",
      [
        [0, 'valid'],
        [1, 'invalid'],
      ],
    ),
  )
    .requiredOption('--secret-env <name>', 'the environment variable holding the signing secret')
    .requiredOption('--signature <value>', 'the signature header as received')
    .option('--timestamp <value>', 'the timestamp header, when the scheme signs it before the body')
    .option('--algorithm <name>', 'the HMAC hash (overrides CONFORMANCE_SIGNATURE_ALGORITHM)')
    .option('--encoding <name>', 'hex or base64 (overrides CONFORMANCE_SIGNATURE_ENCODING)')
    .action(async (options: VerifyWebhookOptions) => {
      const { verifyGivenWebhook } = await import('../verify-webhook.ts');
      await exitWith('verify-webhook', () => verifyGivenWebhook(options));
    });
