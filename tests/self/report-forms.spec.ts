// The report's forms read literally: a PASS names the MUST requirement it does not count (the page,
// conformance.md, the job summary); a result an older suite wrote (schema 1.0.0: curls with `<redacted>`,
// values with float noise, no offending fields) still renders a page, with its causes and cards; a body the
// report cut short still pretty-prints as far as it goes; a long list of violations reads grouped by kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Requirement } from '../../src/contract/requirements.ts';
import type { ConformanceFailure } from '../../src/protocol/failure.ts';
import type { Finding } from '../../src/protocol/finding.ts';
import { validResult } from '../../src/result/validate.ts';
import { githubSummary } from '../../src/runner/render/github-summary.ts';
import { UNCOUNTED } from '../../src/runner/render/requirement-lines.ts';
import { buildReport } from '../../src/runner/report/build-report.ts';
import { renderMarkdown } from '../../src/runner/report/markdown.ts';
import type { ConformanceReport, TestResultSummary } from '../../src/runner/report/model.ts';
import { renderPage } from '../../src/runner/report/page/document.tsx';
import { pageView } from '../../src/runner/report/page/from-report.ts';
import { jsonLines } from '../../src/runner/report/page/json-lines.ts';
import { renderResult } from '../../src/runner/report/write-report.ts';
import { Verdict } from '../../src/worker/verdict/verdicts.ts';
import { sandboxRunMeta } from './findings-support.ts';
import { scratchDir } from './scratch.ts';

const requirement = (id: string, extra: Partial<Requirement> = {}): Requirement => ({
  id,
  level: 'MUST',
  section: 'Endpoints › part',
  operations: [],
  text: `${id}: the stated rule.`,
  verifiable: true,
  ...extra,
});

const testOf = (title: string, requirements: string[], findings: Finding[]): TestResultSummary => {
  const failed = [...new Set(findings.filter((f) => f.outcome === 'fail').map((f) => f.requirement))];
  const stopped = findings.some((f) => f.outcome === 'not-verified');
  return {
    title,
    file: 'tests/conformance/x.spec.ts',
    status: failed.length > 0 ? 'failed' : stopped ? 'skipped' : 'passed',
    outcome: failed.length > 0 ? 'fail' : stopped ? 'not-verified' : 'pass',
    requirements,
    failedRequirements: failed,
    tags: [],
    findings,
    prismViolations: [],
  };
};

const asRead = (report: unknown) => validResult(JSON.parse(JSON.stringify(report)));
const noHistory = { entries: [], unreadable: 0 };

test('a PASS names the MUST requirement it does not count, on the page, in conformance.md and the job summary', () => {
  const catalogue = [
    requirement('REQ-SEEN'),
    requirement('REQ-UNSEEN', { verifiable: false, reason: 'observable only for a user without a profile' }),
  ];
  const tests = [
    testOf(
      'seen',
      ['REQ-SEEN'],
      [{ requirement: 'REQ-SEEN', outcome: 'pass', message: '3 records', count: 3 }],
    ),
    testOf(
      'unseen',
      ['REQ-UNSEEN'],
      [{ requirement: 'REQ-UNSEEN', outcome: 'not-verified', message: 'both users have one' }],
    ),
  ];
  const result = asRead(buildReport(tests, catalogue, [], sandboxRunMeta));
  expect(result.verdict).toBe('pass');
  const sentence =
    'every verifiable MUST requirement of the profile passed; 1 cannot be observed with this data (not counted): REQ-UNSEEN';
  const page = renderPage(pageView(result, noHistory));
  expect(page).toContain(`<p id="verdict-cause">E${sentence.slice(1)}.</p>`);
  // Listed where it is not verified, it is marked so, with what would show it.
  expect(page).toMatch(new RegExp(`id="nv-REQ-UNSEEN".*${UNCOUNTED.replace(/[()]/g, '\\$&')}`, 's'));
  expect(page).toContain('How to verify: observable only for a user without a profile');
  expect(renderMarkdown(result)).toContain(`- **Verdict:** PASS: ${sentence}`);
  expect(githubSummary(result).split('\n')[0]).toBe(`## ✅ Conformance PASS: ${sentence}`);
});

/** A failing result as suite 0.1.0 wrote it under schema 1.0.0: no offending fields, its curls and values as they were. */
function olderResult(): unknown {
  const exchange = (n: number, path: string, status: number, body: string) => ({
    id: `x-${n}`,
    test: 'old',
    request: {
      method: 'GET',
      url: `http://127.0.0.1:4010/developer${path}`,
      headers: { authorization: '<redacted>' },
    },
    response: {
      status,
      headers: { 'content-type': 'application/json' },
      body: { text: body, size: body.length, truncated: false },
    },
    curl: `curl -i -X GET 'http://127.0.0.1:4010/developer${path}' -H 'authorization: <redacted>'`,
  });
  const strain = (at: string) =>
    `1 violation(s):\n  - cycle.json ${at}: must be <= 21 (maximum), got 24.938200000000002 [cycle-score.json#/properties/strain/maximum]`;
  const tests = [
    testOf(
      'one cycle',
      ['OP-GET-CYCLE'],
      [
        {
          requirement: 'OP-GET-CYCLE',
          outcome: 'fail',
          message: strain('/score/strain'),
          exchange: 'x-1',
        } as Finding,
      ],
    ),
    testOf(
      'cursor',
      ['PAG-CURSOR-INVALID'],
      [
        {
          requirement: 'PAG-CURSOR-INVALID',
          outcome: 'fail',
          message: 'a tampered next_token: server error 500',
          exchange: 'x-2',
        } as Finding,
      ],
    ),
  ];
  const catalogue = [requirement('OP-GET-CYCLE'), requirement('PAG-CURSOR-INVALID')];
  const built: ConformanceReport = buildReport(tests, catalogue, [], {
    ...sandboxRunMeta,
    baseUrl: 'http://127.0.0.1:4010/developer',
    exchanges: [
      exchange(
        1,
        '/v2/cycle/101290010487',
        200,
        '{"id":101290010487,"score":{"strain":24.938200000000002,"kilojoule":7856.0176}}',
      ),
      exchange(
        2,
        '/v2/cycle?limit=5&nextToken=eyJ1IjoxMDEyOSwiYyI6InNhbmRib3gi',
        500,
        '{"error":"internal"}',
      ),
    ],
  });
  return { ...JSON.parse(JSON.stringify(built)), schemaVersion: '1.0.0' };
}

test('a result an older suite wrote renders a page: its causes, its cards, curls with the placeholder', () => {
  const result = asRead(olderResult());
  const dir = scratchDir();
  renderResult(result, dir, join(dir, 'requirement-history.jsonl'));
  const page = readFileSync(join(dir, 'index.html'), 'utf8');
  expect(page).toContain('<code class="field">/score/strain</code> <strong>24.94 > 21</strong>');
  expect(page).toMatch(
    /<li id="cause-2" class="cause">.*<code class="field">status<\/code> <strong>500: a tampered next_token/s,
  );
  expect(page.match(/<article class="card"/g)).toHaveLength(2);
  // The page makes its curl from the request the result kept: the placeholder, whatever the old curl said.
  const curls = [...page.matchAll(/<pre id="failure-\d-curl">([^<]*)<\/pre>/g)].map(
    (match) => match[1] ?? '',
  );
  expect(curls).toHaveLength(2);
  for (const curl of curls)
    expect(curl).toContain(`-H 'authorization: '&quot;\${AUTHORIZATION:?set AUTHORIZATION}&quot;`);
  // The answer pretty-printed, its numbers as sent.
  expect(page).toContain('    &quot;strain&quot;: 24.938200000000002,\n');
});

test('a body cut short pretty-prints as far as it goes, each line with its JSON pointer', () => {
  const lines = jsonLines('{"records":[{"id":1,"score":{"strain":24.9382,"tags":[]}},{"id":2,"end":"2026-');
  expect(lines?.map((line) => [line.text, line.pointer])).toEqual([
    ['{', ''],
    ['  "records": [', '/records'],
    ['    {', '/records/0'],
    ['      "id": 1,', '/records/0/id'],
    ['      "score": {', '/records/0/score'],
    ['        "strain": 24.9382,', '/records/0/score/strain'],
    ['        "tags": []', '/records/0/score/tags'],
    ['      }', '/records/0/score'],
    ['    },', '/records/0'],
    ['    {', '/records/1'],
    ['      "id": 2,', '/records/1/id'],
    ['      "end": "2026-', '/records/1/end'],
  ]);
  expect(jsonLines('not json')).toBeUndefined();
});

test('a long list of violations is grouped by kind, each once with its count, and names the fields it saw', () => {
  const problems = [
    ...Array.from({ length: 20 }, (_, i) => ({
      text: `GET /v2/cycle page 0: paginated-cycle-response.json /records/${i}/score/strain: must be <= 21 (maximum), got ${22 + i / 10} [cycle-score.json#/properties/strain/maximum]`,
      field: `/body/records/${i}/score/strain`,
    })),
    'GET /v2/cycle/7: cycle.json /score/strain: must be <= 21 (maximum), got 30 [cycle-score.json#/properties/strain/maximum]',
  ];
  const failure = (() => {
    try {
      new Verdict('INV-STRAIN-RANGE').expectNone(problems);
    } catch (error) {
      return error as ConformanceFailure;
    }
  })();
  expect(failure?.message).toBe(
    [
      '[INV-STRAIN-RANGE] 21 violation(s):',
      `  - 20 like this: ${problems[0] && typeof problems[0] !== 'string' ? problems[0].text : ''}`,
      `  - ${problems[20]}`,
    ].join('\n'),
  );
  // A list as long as a failure lists whole stays as it was.
  expect(() => new Verdict('INV-STRAIN-RANGE').expectNone(problems.slice(0, 3))).toThrow(
    /3 violation\(s\):\n {2}- GET \/v2\/cycle page 0: [^\n]*\/records\/0\/[^\n]*\n {2}- [^\n]*\/records\/1\//,
  );
});
