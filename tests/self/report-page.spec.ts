// The page of a run (reports/index.html), opened in Chromium from file:// as a person opens it from disk or
// a CI artifact. Three runs share one reports directory, so the requirement history holds three lines: two
// narrowed clean runs against a sandbox (the "clean" page, the second's), then the whole ci-gate profile
// against a sandbox with faults that fail checks on their own requests (the "failing" page: over 80 failed
// tests, most with their exchange). Each page is held to the same checks: no request, the verdict and its cause, an anchor, a filter
// kept across a reload, axe-core, and without JavaScript the verdict, the areas and every failure. The
// failing page's open time is printed, never asserted.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import type { FaultName } from '../../sandbox/faults/index.ts';
import { chromiumPath } from '../../src/config/chromium.ts';
import { areaOf } from '../../src/contract/requirements.ts';
import { readResult } from '../../src/result/validate.ts';
import type { ConformanceReport } from '../../src/runner/report/model.ts';
import { playwrightCli } from '../../src/runner/run/playwright.ts';
import { runProcess, suiteTestArgs } from '../../src/runner/run/run-step.ts';
import { suiteReporters } from '../../src/runner/run/suite-run.ts';
import { needsChromium } from './chromium.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { login } from './sandbox-client.ts';
import { sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ mode: 'serial', timeout: WHOLE_RUN_TIMEOUT_MS });

const KINDS = ['clean', 'failing'] as const;
type Kind = (typeof KINDS)[number];

/** The clean runs' selection: a requirement the failing run fails, and one its failures block. */
const CLEAN_GREP = '@AUTH-MISSING-TOKEN|@PAG-LIMIT-OVER-MAX';
/** Faults that fail checks on their own requests (tokens, scopes, query parameters): 90 and more failed tests. */
const FAULTS: FaultName[] = [
  'auth-missing-token-accepted',
  'auth-invalid-token-accepted',
  'auth-expired-token-accepted',
  'scope-unchecked-get-cycle',
  'scope-unchecked-list-cycles',
  'scope-unchecked-get-cycle-recovery',
  'scope-unchecked-list-recoveries',
  'scope-unchecked-get-sleep',
  'scope-unchecked-list-sleeps',
  'scope-unchecked-get-workout',
  'scope-unchecked-list-workouts',
  'scope-unchecked-body-measurement',
  'scope-unchecked-profile',
  'pagination-limit-fraction-accepted',
  'filter-malformed-date-ignored',
  'server-error-on-large-cycle-id',
  'partner-missing-token-accepted',
  'partner-garbage-token-accepted',
  'partner-expired-token-accepted',
];
const FIVE_MB = 5 * 1024 * 1024;
/** The failing run's known failures: one in force, with its owner, ticket and expiry, and one expired. */
const EXPECTATIONS = `expectations:
  SCOPE-READ-PROFILE: { outcome: fail, reason: "scopes land in 2.4", owner: lab-team, ticket: API-231, expires: 2099-12-31 }
  PAUTH-EXPIRED-TOKEN: { outcome: fail, reason: "was due", owner: partner-team, expires: 2020-01-01 }
`;

let dir = '';
let browser: Browser | undefined;
const sandboxes: RunningSandbox[] = [];
const pages = {} as Record<Kind, { file: string; report: ConformanceReport }>;

/** One run of the suite against `sandbox`, its reports (and the requirement history) in the shared directory. */
async function run(sandbox: RunningSandbox, env: NodeJS.ProcessEnv): Promise<ConformanceReport> {
  const playwright = suiteTestArgs('--reporter', suiteReporters());
  const { output } = await runProcess(
    process.execPath,
    [playwrightCli(), ...playwright.args],
    { ...playwright.env, ...sandboxTargetEnv(sandbox, dir), CONFORMANCE_ALLURE_HISTORY: undefined, ...env },
    true,
  );
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) throw new Error(`the run wrote no report:\n${output}`);
  return readResult(file);
}

/** The run's page and report, kept under `kind` (the next run writes index.html again). */
function keep(kind: Kind, report: ConformanceReport): void {
  const file = join(dir, `${kind}.html`);
  copyFileSync(join(dir, 'index.html'), file);
  pages[kind] = { file, report };
}

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take their fixtures by destructuring
test.beforeAll(async ({}, testInfo) => {
  needsChromium();
  // Three runs of the suite, the last a whole profile.
  test.setTimeout(WHOLE_RUN_TIMEOUT_MS);
  dir = join(testInfo.project.outputDir, 'report-page');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const clean = await startSandbox({ port: 0 });
  sandboxes.push(clean);
  const narrowed = { CONFORMANCE_GREP: CLEAN_GREP, CONFORMANCE_WORKERS: '1' };
  await run(clean, narrowed);
  keep('clean', await run(clean, narrowed));
  const broken = await startSandbox({ port: 0, faults: FAULTS });
  sandboxes.push(broken);
  const expectations = join(dir, 'expectations.yaml');
  writeFileSync(expectations, EXPECTATIONS);
  keep('failing', await run(broken, { CONFORMANCE_WORKERS: '2', CONFORMANCE_EXPECTATIONS: expectations }));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--headless'] });
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

/** A page of `kind` in a new context; every request other than the page's own file is collected. */
async function open(
  kind: Kind,
  options: { javaScript?: boolean; hash?: string; colorScheme?: 'light' | 'dark' } = {},
) {
  if (!browser) throw new Error('no browser');
  const context: BrowserContext = await browser.newContext({
    javaScriptEnabled: options.javaScript ?? true,
    colorScheme: options.colorScheme ?? 'light',
  });
  const url = `file://${pages[kind].file}`;
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => {
    if (request.url().split('#')[0] !== url) requests.push(request.url());
  });
  const page: Page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${url}${options.hash ?? ''}`);
  return { context, page, url, requests, errors };
}

const shown = (page: Page) => page.locator('tr[data-status]:visible');

for (const kind of KINDS) {
  test(`${kind} page: opens from file:// without a request, and says the verdict and its cause`, async () => {
    const { context, page, requests, errors } = await open(kind);
    const { report } = pages[kind];
    await expect(page.locator('#verdict-heading')).toContainText(report.verdict.toUpperCase());
    const cause = page.locator('#verdict-cause');
    if (kind === 'failing') {
      await expect(cause).toContainText(/Why: \d+ MUST requirements? failed/);
      await expect(page.locator('#verdict-beside')).toContainText(
        (report.verdictBesideFailures ?? '').toUpperCase(),
      );
    } else await expect(cause).toContainText(`Why: the run was narrowed: ${report.selection.join('; ')}`);
    // The script ran under the page's policy: it showed the filters; nothing was refused (no console error).
    await expect(page.locator('#filters')).toBeVisible();
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await context.close();
  });

  test(`${kind} page: finds a requirement by its anchor`, async () => {
    const { context, page } = await open(kind, { hash: '#AUTH-MISSING-TOKEN' });
    const row = page.locator('#AUTH-MISSING-TOKEN');
    await expect(row).toBeInViewport();
    const sentence = pages[kind].report.requirements.find((r) => r.id === 'AUTH-MISSING-TOKEN')?.text;
    await expect(row.locator('th')).toContainText(sentence ?? 'no such requirement');
    await context.close();
  });

  test(`${kind} page: filters by status, and keeps the filter across a reload of its URL`, async () => {
    const { context, page } = await open(kind);
    const status = kind === 'failing' ? 'fail' : 'pass';
    const expected = pages[kind].report.requirementTotals[status];
    expect(expected).toBeGreaterThan(0);
    await page.locator(`#filters input[name="status"][value="${status}"]`).check();
    await expect(page).toHaveURL(new RegExp(`#status=${status}$`));
    await expect(shown(page)).toHaveCount(expected);
    await page.reload();
    await expect(page.locator(`#filters input[name="status"][value="${status}"]`)).toBeChecked();
    await expect(shown(page)).toHaveCount(expected);
    for (const value of await shown(page).evaluateAll((rows) => rows.map((row) => row.dataset.status)))
      expect(value).toBe(status);
    await context.close();
  });

  // Both palettes on the clean page; the failing page's (a larger tree, the same styles) in light only.
  for (const colorScheme of kind === 'clean' ? (['light', 'dark'] as const) : (['light'] as const))
    test(`${kind} page: no axe-core violation of level serious or above (${colorScheme})`, async () => {
      const { context, page } = await open(kind, { colorScheme });
      const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      // Evaluated by the browser's debugging protocol, which the page's policy does not govern.
      await page.evaluate(axe);
      const violations = await page.evaluate(async () => {
        const { violations } = await (
          window as unknown as {
            axe: {
              run: () => Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }>;
            };
          }
        ).axe.run();
        return violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }));
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await context.close();
    });

  test(`${kind} page: without JavaScript shows the verdict, the areas and every failure`, async () => {
    const { context, page } = await open(kind, { javaScript: false });
    const { report } = pages[kind];
    await expect(page.locator('#verdict-heading')).toContainText(report.verdict.toUpperCase());
    const areas = new Set(report.requirements.map(areaOf));
    await expect(page.locator('#areas tbody tr')).toHaveCount(areas.size);
    await expect(page.locator('#filters')).toBeHidden();
    const failures = page.locator('#failures');
    const failed = report.tests.filter((t) => t.status === 'failed');
    expect(failed.length > 0).toBe(kind === 'failing');
    const text = (await failures.textContent()) ?? '';
    for (const t of failed) expect(text).toContain(t.title);
    for (const id of report.requirements.filter((r) => r.status === 'fail').map((r) => r.id))
      await expect(failures.locator(`article.card h4 a[href="#${id}"]`).first()).toBeVisible();
    for (const card of await failures.locator('article.card').all()) await expect(card).toBeVisible();
    await context.close();
  });
}

test('failing page: copies a curl that runs against the sandbox', async () => {
  const { context, page, url } = await open('failing');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const card = page.locator('article.card', { has: page.locator('h4 a[href="#SCOPE-READ-CYCLES"]') }).first();
  await card.locator('button.copy').click();
  await expect(card.locator('button.copy')).toHaveText('Copied ✓');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await card.locator('pre[id$="-curl"]').textContent());
  // The run's credentials are never in it: a variable to set stands for them.
  expect(copied).toContain(`"\${AUTHORIZATION:?set AUTHORIZATION}"`);
  expect(copied).not.toMatch(/Bearer (?!<token>)/);
  const [broken] = sandboxes.slice(-1);
  if (!broken) throw new Error('no sandbox');
  expect(copied).toContain(broken.baseUrl);
  const { access_token } = await login(broken);
  const { stdout } = await promisify(execFile)('bash', ['-c', copied], {
    env: { ...process.env, AUTHORIZATION: `Bearer ${access_token}` },
  });
  // The request the check sent, with a token of the person's own: the sandbox answers it.
  expect(stdout).toMatch(/^HTTP\/1\.1 200/);
  expect(stdout).toContain('"user_id":');
  console.log(`${url}: curl ran against ${broken.baseUrl}`);
  await context.close();
});

test('failing page: the trend over 3 runs tells a regression from a flip to not verified', async () => {
  const { context, page } = await open('failing');
  const trend = (id: string) => page.locator(`#${id} .trend`);
  await expect(trend('AUTH-MISSING-TOKEN')).toHaveAttribute(
    'aria-label',
    'last 3 runs, oldest first: pass, pass, fail',
  );
  await expect(page.locator('#AUTH-MISSING-TOKEN .trend-kind')).toHaveText('regression');
  await expect(trend('PAG-LIMIT-OVER-MAX')).toHaveAttribute(
    'aria-label',
    'last 3 runs, oldest first: pass, pass, not verified',
  );
  await expect(page.locator('#PAG-LIMIT-OVER-MAX .trend-kind')).toHaveText('pass ↔ not verified');
  await expect(page.locator('#changes li', { hasText: 'New failures' })).toContainText('AUTH-MISSING-TOKEN');
  await context.close();
});

test('failing page: each failure card names its exchange, the offending fields and a property its replay', async () => {
  const { context, page } = await open('failing', { javaScript: false });
  const { report } = pages.failing;
  const failures = report.tests.flatMap((t) => t.findings.filter((f) => f.outcome === 'fail'));
  console.log(
    `failing run: ${failures.length} failures, ${failures.filter((f) => f.exchange).length} with their exchange, ${failures.filter((f) => f.fields).length} naming their fields`,
  );
  expect(failures.filter((f) => !f.exchange).map((f) => f.message)).toEqual([]);
  const cards = page.locator('#failures article.card');
  // Every card shows its request, none the check's text in its place.
  await expect(cards.filter({ hasNotText: 'Request' })).toHaveCount(0);
  await expect(cards.filter({ hasText: 'Request, as the check gave it' })).toHaveCount(0);
  const withFields = failures.filter((f) => f.fields);
  expect(withFields.length).toBeGreaterThan(0);
  // Fields alike but for an index are named once, the index a star, with their count.
  const starred = (field: string) => field.replace(/\/\d+(?=\/|$)/g, '/*');
  const fields = withFields[0]?.fields ?? [];
  const [field = 'no field'] = fields;
  const alike = fields.filter((other) => starred(other) === starred(field)).length;
  await expect(cards.filter({ hasText: 'Offending field' }).first()).toContainText(
    alike > 1 ? `${starred(field)} (${alike})` : field,
  );
  const replayed = failures.find((f) => f.replay);
  if (replayed?.replay) {
    await expect(page.locator('#failures')).toContainText(replayed.replay.command);
    expect(replayed.replay.command).toMatch(
      /^CONFORMANCE_SEED=\d+ CONFORMANCE_GREP='.+' npx physiology-conformance run$/,
    );
  }
  await context.close();
});

test('failing page: what changed names the known failures, their owner, ticket and expiry, and the expired one', async () => {
  const { context, page } = await open('failing');
  const { report } = pages.failing;
  expect(report.deviations.map((d) => d.key)).toContain('SCOPE-READ-PROFILE');
  expect(report.expiredDeviations?.map((d) => d.key)).toEqual(['PAUTH-EXPIRED-TOKEN']);
  // The expired one covers nothing: its failure fails the run again, and says why.
  expect(report.requirements.find((r) => r.id === 'PAUTH-EXPIRED-TOKEN')?.deviation).toBeUndefined();
  expect(report.gateFailures.join('\n')).toContain('known failure PAUTH-EXPIRED-TOKEN expired on 2020-01-01');
  const changes = page.locator('#changes');
  await expect(changes.locator('li', { hasText: 'SCOPE-READ-PROFILE' }).last()).toContainText(
    'known: scopes land in 2.4; owner lab-team; ticket API-231; until 2099-12-31',
  );
  await expect(changes.locator('#expired-known-failures')).toBeVisible();
  await expect(changes.locator('li', { hasText: 'PAUTH-EXPIRED-TOKEN' }).last()).toContainText(
    'owner partner-team; until 2020-01-01',
  );
  await context.close();
});

test('failing page: at least 80 failed tests, and under 5 MB (its open time printed)', async () => {
  const { report, file } = pages.failing;
  expect(report.totals.failed).toBeGreaterThanOrEqual(80);
  const bytes = statSync(file).size;
  expect(bytes).toBeLessThan(FIVE_MB);
  const { context, page } = await open('failing');
  const loaded = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return navigation ? navigation.loadEventEnd - navigation.startTime : Number.NaN;
  });
  console.log(
    `failing page: ${report.totals.failed} failed tests, ${(bytes / 1024).toFixed(0)} KB, opened (load event) in ${loaded.toFixed(0)} ms`,
  );
  await context.close();
});
