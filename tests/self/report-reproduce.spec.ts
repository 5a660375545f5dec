// What an on-call engineer does with a failing run's reports, against a sandbox with two faults (a strain
// over 21, a 500 on a tampered cursor) after a clean run of the same checks: every form names 2 causes; a
// "New failures" id lands on its card; a curl copied from JUnit, with AUTHORIZATION set as the card says
// (a token from `login --print-token`), gets the failure again; the page is no wider than a 390 px phone
// and prints with margins, the run's identity on page 1; no HTML report the run wrote requests another host.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import type { FaultName } from '../../sandbox/faults/index.ts';
import { chromiumPath } from '../../src/config/chromium.ts';
import { AUTHORIZATION_PLACEHOLDER } from '../../src/http/shell-curl.ts';
import type { ConformanceResult } from '../../src/result/schema.ts';
import { readResult } from '../../src/result/validate.ts';
import { cli, runProcess } from '../../src/runner/run/run-step.ts';
import { needsChromium } from './chromium.ts';
import { WHOLE_RUN_TIMEOUT_MS } from './safety-nets.ts';
import { sandboxEnv, sandboxTargetEnv } from './suite-against.ts';

test.describe.configure({ mode: 'serial', timeout: WHOLE_RUN_TIMEOUT_MS });

/** The checks the two faults fail, and nothing else: two short runs. */
const GREP = '@INV-STRAIN-RANGE|@OP-GET-CYCLE|@OP-LIST-CYCLES|@PAG-CURSOR-INVALID';
const FAULTS: FaultName[] = ['cycle-strain-over-21', 'pagination-tampered-cursor-500'];

let dir = '';
let browser: Browser | undefined;
let broken: RunningSandbox | undefined;
let result: ConformanceResult;
const sandboxes: RunningSandbox[] = [];

/** The suite's `run` of the selection against `sandbox` into `dir`: its reporters (HTML, JUnit), Allure's step. */
async function run(sandbox: RunningSandbox, env: NodeJS.ProcessEnv): Promise<ConformanceResult> {
  const [command, args] = cli('run');
  const { output } = await runProcess(
    command,
    args,
    { ...sandboxTargetEnv(sandbox, dir), CONFORMANCE_GREP: GREP, CONFORMANCE_WORKERS: '1', ...env },
    true,
  );
  try {
    return readResult(join(dir, 'conformance.json'));
  } catch (error) {
    throw new Error(`the run wrote no report: ${String(error)}\n${output}`);
  }
}

/** XML text as its reader gets it (the five entities the suite's XML escapes). */
const xmlDecoded = (xml: string): string =>
  xml.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ENTITIES[name] ?? '');
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

/** Every .html file under `folder`. */
const htmlFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true, recursive: true }).flatMap((entry) =>
    entry.isFile() && entry.name.endsWith('.html') ? [join(entry.parentPath, entry.name)] : [],
  );

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take their fixtures by destructuring
test.beforeAll(async ({}, testInfo) => {
  needsChromium();
  dir = join(testInfo.project.outputDir, 'report-reproduce');
  rmSync(dir, { recursive: true, force: true });
  const clean = await startSandbox({ port: 0 });
  broken = await startSandbox({ port: 0, faults: FAULTS });
  sandboxes.push(clean, broken);
  await run(clean, {});
  result = await run(broken, {
    CONFORMANCE_ALLURE_REPORT: '1',
    GITHUB_STEP_SUMMARY: join(dir, 'job-summary.md'),
  });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--headless'] });
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

/** The failing run's page at a viewport of `width` × `height`. */
async function open(width = 1366, height = 768): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(`file://${join(dir, 'index.html')}`);
  return page;
}

test('two faults are 2 causes, in the job summary, conformance.md and the page', async () => {
  expect(result.verdict).toBe('fail');
  const summary = readFileSync(join(dir, 'job-summary.md'), 'utf8');
  expect(summary).toContain('### 2 causes');
  expect(summary).toMatch(
    /^- `\/score\/strain` \d+(\.\d+)? > 21 on GET \/v2\/cycle\/\{id\}.*: INV-STRAIN-RANGE/m,
  );
  expect(summary).toMatch(/^- `status` 500: .* on GET \/v2\/cycle, .*: PAG-CURSOR-INVALID$/m);
  expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('## 2 causes of the failures');
  const page = await open();
  await expect(page.locator('#causes li.cause')).toHaveCount(2);
  await expect(page.locator('#causes li.cause').first()).toContainText('/score/strain');
  await expect(page.locator('#causes li.cause').first().locator('button.copy')).toBeVisible();
  // Each cause's cards are grouped under it.
  await expect(page.locator('#group-cause-2 article.card')).toHaveCount(4);
  await page.context().close();
});

test('a "New failures" id lands on its card, and the card links back', async () => {
  const page = await open();
  const fresh = page.locator('#changes li', { hasText: 'New failures' }).locator('a.req-id');
  await expect(fresh).toHaveCount(4);
  const link = fresh.filter({ hasText: 'OP-GET-CYCLE' });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^#failure-\d+$/);
  await link.click();
  const card = page.locator(`article.card${href}`);
  await expect(card).toBeInViewport();
  await expect(card.locator('h4')).toContainText('OP-GET-CYCLE · GET /v2/cycle/{id} · /score/strain');
  // The offending field is marked in the pretty-printed answer.
  await expect(card.locator('pre.json mark')).toContainText('"strain":');
  await card.locator('a', { hasText: '↑ its cause' }).click();
  await expect(page.locator('#cause-1')).toBeInViewport();
  await page.context().close();
});

test('a curl copied from JUnit, with AUTHORIZATION set as the card says, gets the failure again', async () => {
  const junit = xmlDecoded(readFileSync(join(dir, 'junit.xml'), 'utf8'));
  const copied = /reproduce: (curl .*nextToken=.*)$/m.exec(junit)?.[1];
  expect(copied).toContain(
    `# set ${AUTHORIZATION_PLACEHOLDER} first (a user token: npx physiology-conformance login --print-token)`,
  );
  const page = await open();
  await expect(page.locator('#group-cause-2 article.card').first()).toContainText(
    `Set ${AUTHORIZATION_PLACEHOLDER} first`,
  );
  await page.context().close();
  // The token as the card says: `login --print-token` signs user A in and prints AUTHORIZATION='Bearer …'.
  const store = join(mkdtempSync(join(tmpdir(), 'conformance-store-')), 'tokens.json');
  const [command, args] = cli('login', '--print-token');
  if (!broken) throw new Error('no sandbox');
  const login = await runProcess(
    command,
    args,
    {
      ...sandboxEnv,
      CONFORMANCE_ENV_FILE: undefined,
      CONFORMANCE_TARGET: 'remote',
      CONFORMANCE_BASE_URL: broken.baseUrl,
      CONFORMANCE_AUTH_URL: broken.authUrl,
      CONFORMANCE_TOKEN_STORE: store,
    },
    true,
  );
  expect(login.code, login.output).toBe(0);
  const assignment = login.output.split('\n').find((line) => line.startsWith("AUTHORIZATION='Bearer "));
  expect(assignment).toBeDefined();
  const { stdout } = await promisify(execFile)('bash', [
    '-c',
    `${assignment}; export AUTHORIZATION; ${copied}`,
  ]);
  // The same request, with the person's own token: the sandbox's fault answers it 500 again.
  expect(stdout).toMatch(/^HTTP\/1\.1 500/);
});

test('at 390 px the page is no wider than the screen; printed, it has margins and the run on page 1', async () => {
  const phone = await open(390, 844);
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await phone.context().close();
  // A4 less the page's margins, at 96 px per inch: 182 × 265 mm.
  const printed = await open(688, 1001);
  await printed.emulateMedia({ media: 'print' });
  const margins = await printed.evaluate(() =>
    [...document.styleSheets]
      .flatMap((sheet) => [...sheet.cssRules])
      .flatMap((rule) => (rule instanceof CSSMediaRule ? [...rule.cssRules] : [rule]))
      .flatMap((rule) => (rule instanceof CSSPageRule ? [rule.style.margin] : [])),
  );
  expect(margins).toEqual(['16mm 14mm']);
  const identity = await printed.locator('p.identity').boundingBox();
  expect(identity?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(1001);
  await expect(printed.locator('p.identity')).toContainText(result.baseUrl);
  await expect(printed.locator('article.card').first()).toHaveCSS('break-inside', 'auto');
  const pdf = await printed.pdf({ preferCSSPageSize: true });
  console.log(
    `the failing page prints on ${(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length} pages`,
  );
  await printed.context().close();
});

test('no HTML report the run wrote requests another host: the page, Playwright’s and Allure’s', async () => {
  if (!browser) throw new Error('no browser');
  const files = htmlFiles(dir);
  for (const name of ['index.html', join('html', 'index.html'), join('allure', 'index.html')])
    expect(files).toContain(join(dir, name));
  for (const file of files) {
    const context = await browser.newContext();
    const requests: string[] = [];
    context.on('request', (request) => {
      if (!/^(file|data|blob|about):/.test(request.url())) requests.push(request.url());
    });
    // Nothing leaves the machine, whatever a report asks for: every request is counted, then refused.
    await context.route(/^https?:/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    // What a report's script loads after its load event (an analytics tag is async).
    await page.waitForLoadState('networkidle');
    console.log(`${file}: ${requests.length} requests to other hosts`);
    expect(requests, file).toEqual([]);
    await context.close();
  }
});
