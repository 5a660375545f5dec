// `physiology-conformance verify-report FILE`: a certification result's certificate (src/cli/verify-report.ts).
import type { Command } from 'commander';
import { exitWith, subcommand } from './common.ts';

export const verifyReportCommand = (): Command =>
  subcommand(
    'verify-report',
    "Check a result against the published result schema, then a certification result's certificate: its digest against this suite's spec, schemas and version and the whole result, its signature (--public-key), its verdict and requirements against its own tests' findings.",
    [
      [
        0,
        "the digest matches (and the signature, with --public-key), the verdict follows from the tests' findings, and it is a PASS of the whole profile: a certificate",
      ],
      [
        1,
        "the result does not follow the result schema, the digest or the signature does not match, the verdict or a requirement is not what its tests' findings give, the run was narrowed (a selection, a shard) or left a MUST requirement unrun, or the verdict is not PASS",
      ],
    ],
  )
    .argument('<report>', 'a conformance.json of the certification profile')
    .option(
      '--public-key <file>',
      "the certifying party's Ed25519 public key (PEM): the result's signature must verify with it",
    )
    .action(async (file: string, options: { publicKey?: string }) => {
      const { verifyReport } = await import('../verify-report.ts');
      await exitWith('verify-report', () => verifyReport(file, options));
    });
