// What becomes of a request the target answers 429. The client waits out each 429 (the pacer holds its
// credential until the announced reset) and asks a judge whether to send it again: the run's judge knows
// which operations the contract lists 429 for (src/worker/session/rate-limit-judge.ts); a client outside a run stops
// a request after REFUSALS_BEFORE_STOP answers 429. Either way a 429 cannot hold a request for ever.
import type { Exchange } from './exchange.ts';
import { describedLimit } from './rate-budget.ts';
import type { AnnouncedRateLimit } from './rate-limit-headers.ts';
import { RequestRefused } from './request-refused.ts';

/** One 429 a request got: the exchange, what it announced, and when it came (epoch ms). */
export interface RateLimitedAnswer {
  exchange: Exchange;
  announced?: AnnouncedRateLimit;
  at: number;
}

/**
 * Decides after each 429 of a request (`answers`, in order): undefined sends it again once the reset has
 * passed; an error ends it. `cannotWait`: the wait the 429 asked for ends past the run's budget (the pacer's
 * reason); undefined then leaves the refusal on the run's side.
 */
export type RateLimitJudge = (
  credential: string,
  answers: readonly RateLimitedAnswer[],
  cannotWait?: string,
) => Promise<Error | undefined>;

/** 429s in a row, each after the reset the last announced, before a request is no longer sent again. */
export const REFUSALS_BEFORE_STOP = 5;

/** `limit 100 per 60 s, remaining 37, reset in 41 s, Retry-After 1 s`, or that it announced nothing. */
export function announcedNumbers(announced: AnnouncedRateLimit | undefined): string {
  if (!announced) return 'no rate-limit header';
  const parts = [
    announced.limit === undefined
      ? undefined
      : `limit ${describedLimit(announced.limit, announced.windowSeconds)}`,
    announced.remaining === undefined ? undefined : `remaining ${announced.remaining}`,
    announced.resetSeconds === undefined ? undefined : `reset in ${Math.round(announced.resetSeconds)} s`,
    announced.retryAfterSeconds === undefined
      ? undefined
      : `Retry-After ${Math.round(announced.retryAfterSeconds)} s`,
  ];
  return parts.filter((part) => part !== undefined).join(', ') || 'no rate-limit number';
}

/** Whether every 429 said when to retry: each retry then went out after the full reset it announced. */
export const announcedEveryReset = (answers: readonly RateLimitedAnswer[]): boolean =>
  answers.every(
    ({ announced }) => announced?.retryAfterSeconds !== undefined || announced?.resetSeconds !== undefined,
  );

/** Whether a 429 announced requests left: the target refused although its own budget had room. */
export const announcedRoom = (answers: readonly RateLimitedAnswer[]): boolean =>
  answers.some(({ announced }) => (announced?.remaining ?? 0) > 0);

/** How a run of 429s reads: `answered 429 5 times in a row over 6 s, …` with the last one's numbers. */
export function refusalsText(answers: readonly RateLimitedAnswer[]): string {
  const first = answers[0];
  const last = answers.at(-1);
  const seconds = first && last ? Math.round((last.at - first.at) / 1000) : 0;
  const waited = announcedEveryReset(answers)
    ? `each retry sent after the full reset the last 429 announced${announcedRoom(answers) ? ', although it announced requests remaining' : ''}`
    : 'not every 429 said when to retry (no Retry-After or reset): the run backed off between them';
  return `answered 429 ${answers.length} times in a row over ${seconds} s, ${waited} (last: ${announcedNumbers(last?.announced)})`;
}

/** The judge of a client outside a run: a request answered 429 REFUSALS_BEFORE_STOP times stops, on the target's side. */
export const boundedRetries: RateLimitJudge = async (_credential, answers, cannotWait) => {
  const last = answers.at(-1);
  if (cannotWait || !last || answers.length < REFUSALS_BEFORE_STOP) return undefined;
  return new RequestRefused(last.exchange.request, refusalsText(answers), 'target');
};
