// The traceability gate: every test declares at least one requirement ID and only IDs that exist; every
// verifiable MUST requirement is declared by at least one test and, given reports/mutation.json, covered
// by at least one fault that a test declaring it kills. Prints the lists; exits 1 on any gap.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_TARGET } from '../config/environment.ts';
import { requirements, unobservableMust, verifiableMust } from '../contract/requirements.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { playwrightCli } from '../runner/run/playwright.ts';
import type { MutantResult } from './mutation-result.ts';
import { scriptArgs } from './script-args.ts';

interface ListedTest {
  title: string;
  requirementIds: string[];
}

interface JsonSuite {
  title: string;
  specs?: { title: string; tags?: string[]; file: string; line: number }[];
  suites?: JsonSuite[];
}

const REQUIREMENT_TAG = /^@?[A-Z0-9]+(-[A-Z0-9]+)+$/;

/**
 * Every test of the conformance suite with its requirement tags, without running anything: every project of
 * the run's plan (src/config/run-plan.ts), each test being in exactly one of them.
 */
export function listTests(): ListedTest[] {
  const listing = spawnSync(process.execPath, [playwrightCli(), 'test', '--list', '--reporter=json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...EMBEDDED_TARGET },
  });
  if (listing.status !== 0) throw new Error(`playwright --list failed:\n${listing.stderr}`);
  const report = JSON.parse(listing.stdout.slice(listing.stdout.indexOf('{'))) as { suites: JsonSuite[] };
  const tests: ListedTest[] = [];
  const visit = (suite: JsonSuite, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      tests.push({
        title: [...path, spec.title].filter(Boolean).join(' › '),
        requirementIds: (spec.tags ?? [])
          .filter((tag) => REQUIREMENT_TAG.test(tag))
          .map((tag) => tag.replace(/^@/, '')),
      });
    }
    for (const child of suite.suites ?? []) visit(child, [...path, child.title]);
  };
  for (const suite of report.suites) visit(suite, []);
  return tests;
}

export interface TraceabilityGaps {
  testsWithoutRequirement: string[];
  unknownRequirementIds: { test: string; id: string }[];
  requirementsWithoutTest: string[];
  requirementsWithoutKilledFault: string[];
  mutationRun: boolean;
}

export function traceabilityGaps(tests: ListedTest[], mutants: MutantResult[] | undefined): TraceabilityGaps {
  const known = new Set(requirements.map((requirement) => requirement.id));
  const must = verifiableMust();
  const declared = new Set(tests.flatMap((test) => test.requirementIds));
  const killed = new Set(
    (mutants ?? []).filter((mutant) => mutant.killed).map((mutant) => mutant.requirement),
  );
  return {
    testsWithoutRequirement: tests
      .filter((test) => test.requirementIds.length === 0)
      .map((test) => test.title),
    unknownRequirementIds: tests.flatMap((test) =>
      test.requirementIds.filter((id) => !known.has(id)).map((id) => ({ test: test.title, id })),
    ),
    requirementsWithoutTest: must
      .filter((requirement) => !declared.has(requirement.id))
      .map((requirement) => requirement.id),
    requirementsWithoutKilledFault: mutants
      ? must.filter((requirement) => !killed.has(requirement.id)).map((requirement) => requirement.id)
      : [],
    mutationRun: mutants !== undefined,
  };
}

/** The newest modification time of the files the mutation run depends on (suite, sandbox, contract). */
function newestSource(): { file: string; mtimeMs: number } {
  let newest = { file: '', mtimeMs: 0 };
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.(ts|json|yaml|env)$/.test(entry.name)) {
        const { mtimeMs } = statSync(path);
        if (mtimeMs > newest.mtimeMs) newest = { file: path, mtimeMs };
      }
    }
  };
  for (const dir of ['src', 'sandbox', 'tests/conformance', 'specs', 'schemas']) visit(dir);
  return newest;
}

/** Why reports/mutation.json cannot be trusted (missing, or older than what it describes), if it cannot. */
function mutationReportProblem(file: string): string | undefined {
  if (!existsSync(file)) return `${file} is missing: run npm run mutation first`;
  const newest = newestSource();
  if (statSync(file).mtimeMs < newest.mtimeMs)
    return `${file} is stale: ${newest.file} changed after it was written; run npm run mutation again`;
  return undefined;
}

function main(): void {
  const tests = listTests();
  const mutationFile = reportPath('mutation.json');
  const stale = mutationReportProblem(mutationFile);
  const mutants = stale
    ? undefined
    : (JSON.parse(readFileSync(mutationFile, 'utf8')) as { faults: MutantResult[] }).faults;
  const gaps = traceabilityGaps(tests, mutants);
  const sections: [string, string[]][] = [
    ['tests that declare no requirement ID', gaps.testsWithoutRequirement],
    [
      'tests that declare an unknown requirement ID',
      gaps.unknownRequirementIds.map(({ test, id }) => `${id} in "${test}"`),
    ],
    ['MUST requirements no test declares', gaps.requirementsWithoutTest],
    ['MUST requirements no killed fault covers', gaps.requirementsWithoutKilledFault],
  ];
  const unverifiable = unobservableMust();
  console.log(
    `Traceability: ${tests.length} tests, ${requirements.length} requirements (${unverifiable.length} MUST not observable black-box: ${unverifiable.map((r) => r.id).join(', ')})`,
  );
  let failed = false;
  if (stale) {
    failed = true;
    console.log(`✗ fault coverage not checked: ${stale}`);
  }
  // What a real target cannot give (reports/remote.json, written by the remote-target run).
  const remote = reportPath('remote.json');
  if (existsSync(remote)) {
    const { notVerified } = JSON.parse(readFileSync(remote, 'utf8')) as {
      notVerified: { id: string; reasons: string[] }[];
    };
    console.log(
      `  ${notVerified.length} MUST requirement(s) only the embedded sandbox verifies (not verified on a separately started one):\n${notVerified.map((r) => `    ${r.id}: ${r.reasons[0] ?? ''}`).join('\n')}`,
    );
  }
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    failed = true;
    console.log(`✗ ${items.length} ${title}:\n${items.map((item) => `    ${item}`).join('\n')}`);
  }
  if (!failed)
    console.log(
      '✓ every test traces to known requirements; every MUST requirement is tested and covered by a killed fault',
    );
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  scriptArgs(`Usage: npm run traceability

  Every test declares known requirement IDs; every verifiable MUST requirement is declared by a test and
  covered by a fault that one of its tests kills (reports/mutation.json, from \`npm run mutation\`); exits 1
  on any gap.
  --help  this text`);
  main();
}
