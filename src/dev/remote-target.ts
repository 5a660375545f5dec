// A target the run did not start: a sandbox started on its own, beside the run, with its realistic sign-in,
// reached by URL with nothing but sandbox/sandbox.env, as a user's server is. Its preflight runs, and a sign-in's
// 4xx is told by the journal, not taken for the server's (src/auth/sign-in-journal.ts). The remote run
// (remote-run.ts) and the mutation gate's sign-in faults (mutation.ts) run against one.
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import type { SandboxInput } from '../../sandbox/options.ts';

/** A sandbox on a free port, with its realistic sign-in and `options`. */
export const sandboxOnItsOwn = (options: SandboxInput = {}): Promise<RunningSandbox> =>
  startSandbox({ port: 0, realisticLogin: true, ...options });

/** The variables of a run against `sandbox`: the sandbox's file of variables, its URLs (which win over it). */
export const remoteTargetEnv = (sandbox: RunningSandbox): Record<string, string> => ({
  CONFORMANCE_ENV_FILE: 'sandbox/sandbox.env',
  CONFORMANCE_BASE_URL: sandbox.baseUrl,
  CONFORMANCE_AUTH_URL: sandbox.authUrl,
});
