// The pipeline templates under examples/ work as shipped: each parses, validates against its format's
// schema (ajv) and its format's linter (action-validator for GitHub Actions; gitlab-ci-local, which loads
// the file as GitLab would, for GitLab CI), calls the installed command rather than Playwright, and names
// only variables the suite knows, secrets from the CI's secret store and never in a committed env file.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateWorkflow } from '@action-validator/core';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { readEnvFile } from '../../src/config/env-file.ts';
import { isVariableName, variables } from '../../src/config/variables.ts';
import { packageRoot } from '../../src/run-state/package.ts';
import {
  conformanceNames,
  EXAMPLES,
  type Example,
  envFilesOf,
  examplesDir,
  loadExample,
  schemaValidator,
} from './examples-support.ts';

interface Step {
  run?: string;
  if?: string;
}

const run = promisify(execFile);

/** The text without its comment lines, which may quote what the commands must not do. */
const withoutComments = (text: string): string =>
  text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');

/** gitlab-ci-local --list-all on `yaml` as .gitlab-ci.yml, in a folder of its own (it writes state beside it). */
async function gitlabCiLocal(yaml: string): Promise<{ code: number; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'conformance-gitlab-'));
  try {
    writeFileSync(join(folder, '.gitlab-ci.yml'), yaml);
    const bin = join(packageRoot, 'node_modules', 'gitlab-ci-local', 'dist', 'index.js');
    // No colours: Playwright's workers force them on, and the test reads the table.
    const env = { ...process.env, FORCE_COLOR: '0' };
    const { stdout, stderr } = await run(process.execPath, [bin, '--list-all'], { cwd: folder, env });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

for (const example of EXAMPLES) {
  test.describe(example.path, () => {
    test('validates against its schema', () => {
      const validate = schemaValidator(example.kind);
      expect(validate(example.data), JSON.stringify(validate.errors, null, 2)).toBe(true);
    });

    test('runs the installed physiology-conformance, never Playwright directly', () => {
      const commands = withoutComments(example.text);
      expect(commands).toMatch(/npx physiology-conformance run /);
      expect(commands).not.toMatch(/playwright\s+test/);
      expect(commands).not.toMatch(/npx playwright/);
      // The package is not on the registry: installing it by name would take someone else's.
      expect(commands).not.toMatch(/npm (?:install|i) physiology-conformance/);
      // The requirement-level JUnit; the job summary is the suite's own (a whole conformance.md past GitHub's
      // 1 MiB would be dropped): a template adds only the link to the page it uploaded.
      expect(example.text).toContain('junit-requirements.xml');
      for (const line of commands.split('\n').filter((text) => text.includes('$GITHUB_STEP_SUMMARY')))
        expect(line).toMatch(
          /^\s*echo "\*\*\[Open the report page\]\(\$\{PAGE_URL\}\)\*\*[^"]*" >> "\$GITHUB_STEP_SUMMARY"$/,
        );
    });

    test('names only variables of the suite, secrets from the secret store', () => {
      // An unknown CONFORMANCE_* variable is a configuration error (exit 2) for the suite.
      expect(conformanceNames(example.text).filter((name) => !isVariableName(name))).toEqual([]);
      if (example.kind !== 'github') return;
      for (const line of example.text.split('\n')) {
        const set = /^\s*(CONFORMANCE_[A-Z0-9_]+):\s*(.*)$/.exec(line);
        if (!set?.[1] || !isVariableName(set[1]) || !('secret' in variables[set[1]])) continue;
        expect(set[2]).toBe(`\${{ secrets.${set[1]} }}`);
      }
    });

    test('its env files exist and hold no secret', () => {
      const files = envFilesOf(example.text);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const entries = readEnvFile(join(examplesDir, 'conformance', file));
        for (const { name } of entries) {
          expect(isVariableName(name), `${file}: ${name}`).toBe(true);
          if (isVariableName(name)) expect('secret' in variables[name], `${file}: ${name}`).toBe(false);
          // The target comes from a CI variable, checked for before the run (unset: the embedded sandbox).
          expect(name).not.toBe('CONFORMANCE_BASE_URL');
        }
      }
    });
  });
}

interface Job {
  needs?: string | string[];
  if?: string;
  steps: (Step & {
    uses?: string;
    id?: string;
    with?: Record<string, unknown>;
    env?: Record<string, string>;
  })[];
}
const jobsOf = (example: Example): [string, Job][] =>
  Object.entries((example.data as { jobs: Record<string, Job> }).jobs);
const GITHUB = EXAMPLES.filter((e) => e.kind === 'github');

test.describe('the GitHub templates as a release engineer needs them', () => {
  for (const example of GITHUB) {
    test(`${example.path}: every action pinned to a commit, its version beside it`, () => {
      const uses = example.text.split('\n').filter((line) => /^\s*(- )?uses: /.test(line));
      expect(uses.length).toBeGreaterThan(0);
      for (const line of uses) expect(line).toMatch(/uses: [\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    });

    test(`${example.path}: every artifact kept for a stated time; the page unzipped, linked from the summary`, () => {
      const steps = jobsOf(example).flatMap(([, job]) => job.steps);
      const uploads = steps.filter((step) => step.uses?.startsWith('actions/upload-artifact@'));
      for (const upload of uploads)
        expect(upload.with?.['retention-days'], JSON.stringify(upload)).toBeDefined();
      const page = uploads.filter((upload) => upload.with?.archive === false);
      expect(page).toHaveLength(
        jobsOf(example).filter(([, job]) => job.steps.some(runsTheSuite)).length - shards(example),
      );
      for (const upload of page) {
        expect(String(upload.with?.path)).toMatch(/\.html$/);
        expect(upload.id).toBe('page');
      }
      expect(
        steps.filter((step) => step.env?.PAGE_URL === `\${{ steps.page.outputs.artifact-url }}`),
      ).toHaveLength(page.length);
    });

    test(`${example.path}: a cancelled run merges nothing and comments nothing`, () => {
      for (const [name, job] of jobsOf(example)) {
        // A job after others (the merge) runs only for a run not cancelled; the nightly's hook on a failure.
        if (job.needs) expect(job.if, name).toMatch(/!cancelled\(\)|failure\(\)/);
        for (const step of job.steps.filter((s) =>
          /action-junit-report|github-test-reporter/.test(s.uses ?? ''),
        ))
          expect(step.if, `${name}: ${step.uses}`).toContain('!cancelled()');
      }
    });

    test(`${example.path}: every job that runs the suite against the preview waits for it first`, () => {
      for (const [name, job] of jobsOf(example)) {
        if (!job.steps.some((step) => step.env?.PREVIEW_URL && step.run?.includes('CONFORMANCE_BASE_URL')))
          continue;
        // A merge judges the shards' results, and sends nothing to the preview.
        if (!job.steps.some((step) => /physiology-conformance run /.test(step.run ?? ''))) continue;
        expect(
          job.steps.some((step) => step.run?.includes('--retry-all-errors')),
          name,
        ).toBe(true);
      }
    });
  }

  test('the nightly tells the team of a failed night through a hook it fills in', () => {
    const notify = jobsOf(loadExample('github/nightly-smoke.yml', 'github')).find(
      ([name]) => name === 'notify',
    )?.[1];
    expect(notify?.if).toBe(`\${{ failure() }}`);
    expect(notify?.needs).toEqual(['smoke', 'explore']);
    expect(notify?.steps[0]?.env?.NOTIFY_WEBHOOK).toBe(`\${{ secrets.NIGHTLY_NOTIFY_WEBHOOK }}`);
  });

  test('the GitLab template exposes the page alone in the merge request, after a failing gate too', () => {
    const { data } = loadExample('gitlab/pr-gate.gitlab-ci.yml', 'gitlab');
    const page = (
      data as Record<string, { artifacts?: Record<string, unknown>; rules?: { when?: string }[] }>
    )['conformance-page'];
    expect(page?.artifacts).toMatchObject({
      paths: ['conformance/reports/index.html'],
      when: 'always',
      expire_in: '30 days',
    });
    expect(page?.artifacts?.expose_as).toBeDefined();
    expect(page?.rules?.[0]?.when).toBe('always');
  });
});

/** A step that runs the suite or merges its shards. */
const runsTheSuite = (step: Step): boolean =>
  /physiology-conformance (run|merge-reports) /.test(step.run ?? '');
/** The shard jobs of a template (they upload a blob, not a page). */
const shards = (example: Example): number =>
  jobsOf(example).filter(([, job]) => job.steps.some((step) => step.run?.includes('--shard'))).length;

test.describe('linters', () => {
  test('the schemas refuse a misspelt key', () => {
    const github = schemaValidator('github');
    expect(
      github(parse('on: push\njobs:\n  a:\n    run-on: ubuntu-latest\n    steps: [{ run: echo }]\n')),
    ).toBe(false);
    expect(schemaValidator('gitlab')(parse('job:\n  scripts: [echo]\n'))).toBe(false);
  });

  for (const example of EXAMPLES.filter((e) => e.kind === 'github')) {
    test(`action-validator: ${example.path}`, () => {
      const result = validateWorkflow(example.text);
      expect(result.errors, JSON.stringify(result.errors, null, 2)).toEqual([]);
    });
  }

  test('gitlab-ci-local loads the GitLab template as GitLab CI would, and refuses a broken one', async () => {
    const loaded = await gitlabCiLocal(
      readFileSync(join(examplesDir, 'gitlab', 'pr-gate.gitlab-ci.yml'), 'utf8'),
    );
    expect(loaded.code, loaded.output).toBe(0);
    expect(loaded.output).toContain('json schema validated');
    expect(loaded.output).toMatch(/^conformance\s+test\b/m);
    const broken = await gitlabCiLocal('conformance:\n  scripts: [echo]\n');
    expect(broken.code).not.toBe(0);
  });

  test('the certification job checks its report once the run has passed', () => {
    const { data } = loadExample('github/certification.yml', 'github');
    const { steps } = (data as { jobs: { certify: { steps: Step[] } } }).jobs.certify;
    const runAt = steps.findIndex((step) =>
      step.run?.includes('physiology-conformance run --profile certification'),
    );
    const verifyAt = steps.findIndex((step) => step.run?.includes('physiology-conformance verify-report'));
    expect(runAt).toBeGreaterThanOrEqual(0);
    expect(verifyAt).toBeGreaterThan(runAt);
    // No `if:`: the default success() skips it after a run that did not pass.
    expect(steps[verifyAt]?.if).toBeUndefined();
    expect(steps[verifyAt]?.run).toContain('verify-report reports/conformance.json');
    // Signed where the certifying party's key is a secret, checked by its committed public key.
    const keyAt = steps.findIndex((step) => step.run?.includes('CONFORMANCE_SIGNING_KEY_FILE='));
    expect(keyAt).toBeGreaterThanOrEqual(0);
    expect(keyAt).toBeLessThan(runAt);
    expect(steps[verifyAt]?.run).toContain('--public-key certification.pub');
    expect(steps.some((step) => step.if === 'always()' && step.run?.includes('rm -f'))).toBe(true);
  });
});
