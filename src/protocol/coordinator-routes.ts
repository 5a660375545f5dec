// The protocol between the run's coordinator (server.ts) and the workers (client.ts): each route once, with
// the shapes both sides read, so that neither repeats the other's literals.
export const ROUTES = {
  turn: '/turn',
  shownRate: '/rate-limit/shown',
  rateLimitStop: '/rate-limit/stop',
  memoClaim: '/memo/claim',
  memoPut: '/memo/put',
  memoRelease: '/memo/release',
  timeouts: '/timeouts',
} as const;

export type Route = (typeof ROUTES)[keyof typeof ROUTES];

/** A read that got no answer, as its waiters learn it: the requirement charged, and the request. */
export interface UnansweredRead {
  requirement: string;
  request: string;
}

/**
 * The answer to a claim: the value, or the claimant's turn to read it, or a wait for another's read, or (to
 * a claimant that waited) the read it waited for got no answer.
 */
export type MemoClaim =
  | { kind: 'value'; value: unknown }
  | { kind: 'yours' }
  | { kind: 'wait' }
  | { kind: 'unanswered'; read: UnansweredRead };
