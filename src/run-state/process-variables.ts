// The variables only the process environment carries: a command of the suite sets them for the processes it
// starts (they are never read from an env file, and never in the run manifest).
export type ProcessVariable =
  | 'CONFORMANCE_REPORTS_DIR' // where the run writes (the mutation runner gives each mutant its own)
  | 'CONFORMANCE_ALLURE_HISTORY' // the Allure history file, e.g. one a CI job caches
  | 'CONFORMANCE_STOP_FILE' // src/run-state/stop-file.ts
  | 'CONFORMANCE_RUN_MANIFEST' // the manifest of the run this process belongs to (set by global setup)
  | 'CONFORMANCE_SELF_TEST_ERROR' // test-only: src/worker/suite/self-test-hooks.ts
  | 'GITHUB_STEP_SUMMARY' // set by GitHub Actions: the job summary file a run's report appends to
  | 'GITHUB_SERVER_URL' // set by GitHub Actions, with the two below: where the run's page is
  | 'GITHUB_REPOSITORY'
  | 'GITHUB_RUN_ID'
  | 'PLAYWRIGHT_BLOB_OUTPUT_DIR'; // Playwright's: where a shard writes its blob report

export const processVariable = (name: ProcessVariable): string | undefined => process.env[name] || undefined;

/** The GitHub Actions run's page (its artifacts are listed there), when the process runs in one. */
export function githubRunUrl(): string | undefined {
  const [server, repository, run] = (
    ['GITHUB_SERVER_URL', 'GITHUB_REPOSITORY', 'GITHUB_RUN_ID'] as const
  ).map(processVariable);
  return server && repository && run ? `${server}/${repository}/actions/runs/${run}` : undefined;
}

/** Hands the run manifest to the processes the run starts next (its workers): global setup only. */
export function handManifestToWorkers(path: string): void {
  process.env.CONFORMANCE_RUN_MANIFEST = path;
}
