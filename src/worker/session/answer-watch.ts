// What the suite records of every answer a test's client gets, whatever the check asked: the reading behind
// SCH-NULL-FOR-ABSENT (a null read as absent, warned once per route and field), and, behind
// CONFORMANCE_PRISM_PROXY, Prism's violations as a second opinion in the report.
import type { TestInfo } from '@playwright/test';
import { fieldPattern } from '../../http/absent-nulls.ts';
import type { Exchange } from '../../http/exchange.ts';
import { methodAndPath } from '../../http/request-timeout.ts';
import { Verdict } from '../verdict/verdicts.ts';

/** What a test records of each answer to a request under `baseUrl` its client sends. */
export function answerWatch(testInfo: TestInfo, baseUrl: string): (exchange: Exchange) => void {
  const nullFields = new Set<string>();
  return (exchange) => {
    warnNulls(exchange, nullFields, baseUrl);
    const violations = exchange.headers['sl-violations'];
    if (violations) recordPrismViolations(testInfo, exchange, violations);
  };
}

/**
 * The reading behind SCH-NULL-FOR-ABSENT (specs/requirements.yaml), of the contract's answers (under
 * `baseUrl`; not the sign-in's or the sandbox administration's): one warning per field and test.
 */
function warnNulls(exchange: Exchange, seen: Set<string>, baseUrl: string): void {
  if (!exchange.request.url.startsWith(`${baseUrl.replace(/\/+$/, '')}/`)) return;
  // One warning per route and field: ids in the path become {id}.
  const route = methodAndPath(exchange.request);
  const fields = [...new Set(exchange.nullPointers.map(fieldPattern))].filter(
    (field) => !seen.has(`${route} ${field}`),
  );
  if (fields.length === 0) return;
  for (const field of fields) seen.add(`${route} ${field}`);
  new Verdict('SCH-NULL-FOR-ABSENT').warn(`${route} sends null for ${fields.join(', ')}: read as absent`);
}

/** CONFORMANCE_PRISM_PROXY: Prism's violations of an exchange become a second opinion in the report. */
function recordPrismViolations(testInfo: TestInfo, exchange: Exchange, header: string): void {
  let violations: { location?: string[]; message?: string }[] = [];
  try {
    violations = JSON.parse(header);
  } catch {
    violations = [{ message: header }];
  }
  const where = `${exchange.request.method} ${new URL(exchange.request.url).pathname} → ${exchange.status}`;
  for (const violation of violations) {
    const description = `${where}: ${violation.location?.join('.') ?? ''} ${violation.message ?? ''}`.trim();
    if (!testInfo.annotations.some((annotation) => annotation.description === description)) {
      testInfo.annotations.push({ type: 'prism-violation', description });
    }
  }
}
