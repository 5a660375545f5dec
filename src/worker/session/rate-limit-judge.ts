// The run's judge of 429s (src/http/rate-limited.ts), by what the contract lists for the request's
// operation (specs/openapi.yaml's responses):
// - an operation that lists no 429 (the partner operations, the activity mapping, the token endpoints): the
//   first 429 is waited out and the request sent again; a second one fails the operation's success
//   requirement (an unlisted status), and so does a first one whose wait ends past the run's budget;
// - a user data operation (429 listed), or a request outside the contract (a sign-in page): sent again after
//   each reset until REFUSALS_BEFORE_STOP 429s in a row; then not verified, on the target's side, and a
//   warning on RL-ANNOUNCED-LIMIT where each 429 said when to retry (a failure in strict mode).
// The first stop of an operation is recorded with the run's coordinator: its later requests stop at their
// first 429, so a target that always refuses one operation costs the run one wait, not one per check.

import type { SuiteConfig } from '../../config/suite-config.ts';
import { operationUnder, pathOf } from '../../contract/match-operation.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { successRequirement } from '../../contract/requirements.ts';
import {
  announcedEveryReset,
  announcedNumbers,
  type RateLimitedAnswer,
  type RateLimitJudge,
  REFUSALS_BEFORE_STOP,
  refusalsText,
} from '../../http/rate-limited.ts';
import { RequestRefused } from '../../http/request-refused.ts';
import { ROUTES } from '../../protocol/coordinator-routes.ts';
import { ConformanceFailure } from '../../protocol/failure.ts';
import { Verdict } from '../verdict/verdicts.ts';
import type { CoordinatorCall } from './coordinator-client.ts';
import { currentTest } from './run-waits.ts';

/** The reading a user data operation's 429 within the target's own announced limit departs from. */
export const ANNOUNCED_LIMIT_READING = 'RL-ANNOUNCED-LIMIT';

/** Where the contract stands on a request's 429: listed for its operation, not listed, or not an operation. */
type Listing =
  | { kind: 'unlisted'; name: string; requirement: string }
  | { kind: 'listed'; name: string }
  | { kind: 'outside'; name: string };

const opName = (op: Operation) => `${op.method} ${op.path} (${op.operationId})`;

function listingOf(config: SuiteConfig, method: string, url: string): Listing {
  const path = pathOf(url);
  // The user OAuth endpoints: the seed lists no status for them, 429 included.
  const oauth = /\/oauth\/oauth2\/(auth|token)$/.exec(path)?.[1];
  if (oauth && path.startsWith(pathOf(config.authUrl)))
    return {
      kind: 'unlisted',
      name: oauth === 'token' ? 'the user token endpoint' : 'the authorization endpoint',
      requirement: 'AUTH-CODE-FLOW',
    };
  const op = operationUnder(config.baseUrl, method, path);
  if (!op) return { kind: 'outside', name: `${method} ${path}` };
  return op.statuses.includes(429)
    ? { kind: 'listed', name: opName(op) }
    : { kind: 'unlisted', name: opName(op), requirement: successRequirement(op) };
}

/** The Errors row the unlisted 429 departs from, word for word. */
const ERRORS_ROW = '"| 429 | rejected due to rate limiting | all user data operations |"';

/** A warning recorded on the running test, if any (a worker's own reads run outside one). */
function warnInTest(requirement: string, message: string, evidence: RateLimitedAnswer): void {
  if (currentTest()) new Verdict(requirement).warn(message, evidence.exchange);
}

export function rateLimitJudge(config: SuiteConfig, call: CoordinatorCall): RateLimitJudge {
  /** The first stop of `request` in the run, recording `stop` when none was (undefined: only reads). */
  const firstStop = async (credential: string, request: string, stop?: string) =>
    ((await call(ROUTES.rateLimitStop, { credential, request, stop })) as { stop?: string }).stop;

  return async (credential, answers, cannotWait) => {
    const [first] = answers;
    const last = answers.at(-1);
    if (!first || !last) return undefined;
    const { request } = last.exchange;
    const listing = listingOf(config, request.method, request.url);
    const evidence = last.exchange;
    // Read once per request, at its first 429: an operation stopped before stops at once.
    const earlier = answers.length === 1 ? await firstStop(credential, listing.name) : undefined;
    const notRetried = `not retried: earlier in this run it ${earlier}`;

    if (listing.kind === 'unlisted') {
      const unlisted = `${listing.name} answered 429, a status the contract does not list for it (${ERRORS_ROW})`;
      if (earlier) return new ConformanceFailure(listing.requirement, `${unlisted}; ${notRetried}`, evidence);
      if (answers.length < 2 && !cannotWait) return undefined;
      const why = cannotWait
        ? `and asked for a wait the run cannot make (${cannotWait})`
        : `again after the run waited out the first as it asked (${announcedNumbers(first.announced)})`;
      await firstStop(credential, listing.name, `answered 429 ${why}`);
      return new ConformanceFailure(listing.requirement, `${unlisted}, ${why}`, evidence);
    }

    if (earlier) return new RequestRefused(request, `answered 429; ${notRetried}`, 'target');
    if (cannotWait || answers.length < REFUSALS_BEFORE_STOP) return undefined;
    const refused = refusalsText(answers);
    await firstStop(credential, listing.name, refused);
    if (listing.kind === 'listed' && announcedEveryReset(answers)) {
      const message = `the target refused ${listing.name} within the rate limit it announced: it ${refused}`;
      if (config.strict) return new ConformanceFailure(ANNOUNCED_LIMIT_READING, message, evidence);
      warnInTest(ANNOUNCED_LIMIT_READING, message, last);
    }
    return new RequestRefused(request, refused, 'target');
  };
}
