// Known deviations: a YAML file (CONFORMANCE_EXPECTATIONS) mapping a requirement ID or a test title to
// its expected outcome, with a reason, and optionally who answers for it (`owner`, `ticket`) and the last
// day it is known (`expires`, YYYY-MM-DD). An expected failure does not fail the gate; an expected failure
// that stops happening does, and so does one past its expiry, so the list cannot rot.
import { readFileSync } from 'node:fs';
import { parseYaml } from '../../contract/yaml-file.ts';

/** Who answers for a known failure, and until when (the result's deviations carry them). */
export interface Ownership {
  owner?: string;
  ticket?: string;
  /** The last day (YYYY-MM-DD, UTC) the failure is known: a run that starts after it counts it again. */
  expires?: string;
}

export interface Expectation extends Ownership {
  /** A requirement ID or a test title. */
  key: string;
  outcome: 'fail';
  reason: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day as written (`2026-02-30` is none). */
const isDay = (text: string): boolean =>
  DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** The entry's owner, ticket and expiry, each checked; throws naming the entry and what is wrong. */
function ownershipOf(path: string, key: string, value: Record<string, unknown>): Ownership {
  const fail = (what: string): never => {
    throw new Error(`${path}: expectation "${key}": ${what}`);
  };
  const ownership: Ownership = {};
  for (const field of ['owner', 'ticket'] as const) {
    const given = value[field];
    if (given === undefined) continue;
    if (typeof given !== 'string' || given.trim() === '') fail(`${field} must be text`);
    ownership[field] = given as string;
  }
  // YAML may read an unquoted date as a Date: it is the same day in UTC.
  const expires = value.expires instanceof Date ? value.expires.toISOString().slice(0, 10) : value.expires;
  if (expires !== undefined) {
    if (typeof expires !== 'string' || !isDay(expires))
      fail(`expires must be a day, YYYY-MM-DD (got ${JSON.stringify(value.expires)})`);
    ownership.expires = expires as string;
  }
  return ownership;
}

export function loadExpectations(path: string | undefined): Expectation[] {
  if (!path) return [];
  const document = parseYaml(readFileSync(path, 'utf8')) as {
    expectations?: Record<string, { outcome?: string; reason?: string } & Record<string, unknown>>;
  };
  return Object.entries(document?.expectations ?? {}).map(([key, value]) => {
    if (value?.outcome !== 'fail' || !value.reason) {
      throw new Error(`${path}: expectation "${key}" needs outcome: fail and a reason`);
    }
    return { key, outcome: 'fail', reason: value.reason, ...ownershipOf(path, key, value) };
  });
}

/** Whether a known failure is past its expiry for a run that started at `startedAt` (ISO date-time). */
export const isExpired = (expectation: Ownership, startedAt: string): boolean =>
  expectation.expires !== undefined && startedAt.slice(0, 10) > expectation.expires;

/** The expectations in force for a run that started at `startedAt`, and those past their expiry. */
export function byExpiry(
  expectations: readonly Expectation[],
  startedAt: string,
): { inForce: Expectation[]; expired: Expectation[] } {
  return {
    inForce: expectations.filter((expectation) => !isExpired(expectation, startedAt)),
    expired: expectations.filter((expectation) => isExpired(expectation, startedAt)),
  };
}

/** A known failure as the result states it: its reason, and its owner, ticket and expiry where given. */
export const statedExpectation = ({ key, reason, owner, ticket, expires }: Expectation) => ({
  key,
  reason,
  ...(owner === undefined ? {} : { owner }),
  ...(ticket === undefined ? {} : { ticket }),
  ...(expires === undefined ? {} : { expires }),
});

/** The expectation that covers a failing test, through its title or one of its requirement IDs. */
export function expectationFor(
  expectations: readonly Expectation[],
  title: string,
  requirementIds: readonly string[],
): Expectation | undefined {
  return expectations.find(
    (expectation) => expectation.key === title || requirementIds.includes(expectation.key),
  );
}
