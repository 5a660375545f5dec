// The page's parts that decide something on their own: the curl a person copies (shell-safe whatever the
// request holds, each redacted secret a variable to set), what a requirement's trend says, and the script the
// page inlines (compiled from its source).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { curl } from '../../src/http/exchange.ts';
import { AUTHORIZATION_PLACEHOLDER, shellCurl } from '../../src/http/shell-curl.ts';
import { clientScriptFile, clientScriptText } from '../../src/runner/report/page/client-script.ts';
import { trendOf } from '../../src/runner/report/page/trend.ts';
import type { Status, TrendKind } from '../../src/runner/report/page/view-model.ts';

/** The words a POSIX shell hands curl for `command`, with `variables` set (curl itself replaced by printf). */
async function argv(command: string, variables: Record<string, string>): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'bash',
    ['-c', `curl() { printf '%s\\0' "$@"; }; ${command}`],
    { env: { PATH: process.env.PATH, ...variables } },
  );
  return stdout.split('\0').slice(0, -1);
}

test('the curl is shell-safe, and each redacted value is a variable named after what it was', async () => {
  const request = {
    method: 'POST',
    url: "http://127.0.0.1:4010/v2/partner/token?note=it's $(echo injected) `id`",
    headers: [
      ['authorization', '<redacted>'],
      ['content-type', 'application/x-www-form-urlencoded'],
    ] as [string, string][],
    body: "grant_type=client_credentials&client_secret=<redacted>&name=O'Brien",
  };
  const { command, placeholders } = shellCurl(request);
  expect(placeholders).toEqual(['AUTHORIZATION', 'CLIENT_SECRET']);
  expect(await argv(command, { AUTHORIZATION: 'Bearer abc def', CLIENT_SECRET: "s3cr'et $HOME" })).toEqual([
    '-i',
    '-X',
    'POST',
    request.url,
    '-H',
    'authorization: Bearer abc def',
    '-H',
    'content-type: application/x-www-form-urlencoded',
    '--data-raw',
    "grant_type=client_credentials&client_secret=s3cr'et $HOME&name=O'Brien",
  ]);
  // Unset, a variable stops the command with its name instead of sending an empty credential.
  await expect(argv(command, { CLIENT_SECRET: 'x' })).rejects.toThrow('AUTHORIZATION: set AUTHORIZATION');
  // The comment at its end says what to set, the placeholder for the authorization, and where a token comes from.
  expect(command).toMatch(
    / --data-raw .+ {2}# set AUTHORIZATION='Bearer <token>', CLIENT_SECRET first \(a partner token: .+\)$/,
  );
});

test("a failure's curl is the reports' curl: credentials redacted, the placeholder and login's token named", () => {
  const line = curl({
    method: 'GET',
    url: 'http://127.0.0.1:4010/developer/v2/cycle?limit=5',
    headers: { accept: 'application/json', authorization: 'Bearer eyJ-the-runs-own-token' },
  });
  expect(line).not.toContain('eyJ-the-runs-own-token');
  expect(line).toBe(
    `curl -i -X GET 'http://127.0.0.1:4010/developer/v2/cycle?limit=5' -H 'accept: application/json' -H 'authorization: '"\${AUTHORIZATION:?set AUTHORIZATION}"` +
      `  # set ${AUTHORIZATION_PLACEHOLDER} first (a user token: npx physiology-conformance login --print-token)`,
  );
});

test('a JSON field redacted in a body becomes the variable of its name', () => {
  const { command, placeholders } = shellCurl({
    method: 'POST',
    url: 'http://127.0.0.1/login',
    headers: [],
    body: '{"username":"a","password":"<redacted>"}',
  });
  expect(placeholders).toEqual(['PASSWORD']);
  expect(command).toContain(`'{"username":"a","password":"'"\${PASSWORD:?set PASSWORD}"'"}'`);
});

const TRENDS: [readonly (Status | undefined)[], TrendKind][] = [
  [['pass'], 'new'],
  [['pass', 'pass', 'pass'], 'steady'],
  [[undefined, 'omitted', 'pass'], 'steady'],
  [['pass', 'pass', 'fail'], 'regression'],
  [['not-verified', 'fail'], 'changed'],
  [['fail', 'fail', 'pass'], 'fixed'],
  [['pass', 'fail', 'pass', 'fail'], 'flaky'],
  [['pass', 'not-verified', 'pass', 'not-verified'], 'data'],
  [['omitted', 'not-verified', 'warning', 'pass'], 'data'],
  [['pass', 'warning'], 'changed'],
];

test('a trend tells a regression and a flaky requirement from one that flips with the data', () => {
  for (const [statuses, kind] of TRENDS) expect(trendOf(statuses), statuses.join(', ')).toBe(kind);
});

test('the page inlines its script as compiled from client.ts (npm run docs:tables writes it)', () => {
  expect(readFileSync(clientScriptFile, 'utf8')).toBe(clientScriptText());
});
