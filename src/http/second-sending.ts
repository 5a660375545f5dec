// A read whose answer is late or lost is sent a second time beside the first, and the client goes on with
// whichever answers first: the hedged request of "The Tail at Scale" (Dean and Barroso, 2013). Late: still
// unanswered at its resend mark (src/http/request-timeout.ts); lost: its connection was reset or its body
// cut. Writes are never sent twice. Each sending keeps its chance until the bound. A request still unanswered
// once it is slow (1 s) is told, and what became of its sendings, with their answers, once all have settled,
// so that the sending the client went on without is judged all the same (src/worker/session/slow-request-watch.ts).
import { setImmediate as afterPending, setTimeout as sleep } from 'node:timers/promises';
import type { ResendMark } from './request-timeout.ts';
import { TransportError, type TransportErrorKind, type TransportResponse } from './transport.ts';

/** One sending's complete answer and its own timing. */
export interface Sending {
  response: TransportResponse;
  startedAt: Date;
  durationMs: number;
}

/** What became of a sending: its answer's status, or why it got none; `ms` from its own start. */
export type Fate =
  | { answered: true; ms: number; status: number }
  | { answered: false; ms: number; reason: string; kind: TransportErrorKind };

/** A request that was slow or lost its connection, and what became of each sending. */
export interface SlowRequest {
  resendMark: ResendMark;
  boundMs: number;
  first: Fate;
  /** The second sending, sent `afterMs` after the first (undefined: not sent again). */
  second?: Fate & { afterMs: number };
  /** The sending the client went on with (undefined: neither answered). */
  used?: 'first' | 'second';
}

/** The complete answers of the sendings that got one, for whoever judges them (never written as they are). */
export interface SendingAnswers {
  first?: Sending;
  second?: Sending;
}

/** Hears what became of a slow request's sendings, and their answers, once all have settled. */
export type SlowRequestTold = (slow: SlowRequest, answers: SendingAnswers) => void;

export interface SecondSendingPlan {
  /** One sending, with its deadline; throws a TransportError. */
  send(timeoutMs: number): Promise<Sending>;
  /** When a request still unanswered is slow: it is told (onSlow). */
  slowMs: number;
  /** When a read still unanswered is sent again (sendAgain); never before `slowMs`. */
  resendMark: ResendMark;
  boundMs: number;
  /** Undefined: never sent twice (a write). Else waits for the second sending's turn; false: none. */
  sendAgain?: () => Promise<boolean>;
  /** Told when the request is slow or loses its connection; returns who hears what became of it. */
  onSlow?: () => SlowRequestTold;
}

type Settled = { sending: Sending; fate: Fate } | { error: TransportError; fate: Fate };

const transportError = (error: unknown): TransportError =>
  error instanceof TransportError ? error : new TransportError(String(error));

async function settle(sending: Promise<Sending>, started: number): Promise<Settled> {
  try {
    const answer = await sending;
    return {
      sending: answer,
      fate: { answered: true, ms: answer.durationMs, status: answer.response.status },
    };
  } catch (caught) {
    const error = transportError(caught);
    const ms = performance.now() - started;
    return { error, fate: { answered: false, ms, reason: error.message, kind: error.kind } };
  }
}

/** The first of `settled` that answered, once one has; undefined once all have failed. */
async function firstAnswer(settled: readonly Promise<Settled>[]): Promise<Settled | undefined> {
  const answered = settled.map((one) =>
    one.then((result) => ('sending' in result ? result : Promise.reject(result))),
  );
  return Promise.any(answered).catch(() => undefined);
}

const MARK = 'mark';

/**
 * MARK after `ms`, once the event loop has read what already arrived (an answer that came while this process
 * was busy is not late); never when the bound comes first. Unreferenced: no process waits for a mark.
 */
const mark = (ms: number, boundMs: number): Promise<typeof MARK> =>
  ms >= boundMs
    ? new Promise<never>(() => {})
    : sleep(Math.max(0, ms), undefined, { ref: false })
        .then(() => afterPending())
        .then(() => MARK);

/** The answer a sending got (undefined: none). */
const sendingOf = (settled: Settled): Sending | undefined =>
  'sending' in settled ? settled.sending : undefined;

const answerOf = (settled: Settled): Sending => {
  if ('sending' in settled) return settled.sending;
  throw settled.error;
};

/** A first sending whose connection was lost: sent again at once, as a late one is at its resend mark. */
const lost = (settled: Settled | typeof MARK): boolean =>
  settled !== MARK && 'error' in settled && settled.error.kind === 'cut';

/** The request's answer: the first sending's, or the second's when the first is late or lost. */
export async function sendWithSecond(plan: SecondSendingPlan): Promise<Sending> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const first = settle(plan.send(plan.boundMs), started);
  let early = await Promise.race([first, mark(plan.slowMs, plan.boundMs)]);
  if (early !== MARK && !(lost(early) && plan.sendAgain)) return answerOf(early);
  const told = plan.onSlow?.();
  if (early === MARK && plan.sendAgain)
    early = await Promise.race([first, mark(plan.resendMark.ms - elapsed(), plan.boundMs - elapsed())]);
  let second: Promise<Settled & { afterMs: number }> | undefined;
  if ((early === MARK || lost(early)) && plan.sendAgain && (await plan.sendAgain())) {
    const afterMs = elapsed();
    // Only a request still without an answer: the first may have answered while the turn came.
    const answeredMeanwhile = await Promise.race([first.then((f) => 'sending' in f), afterPending(false)]);
    if (!answeredMeanwhile) {
      const secondStart = performance.now();
      second = settle(plan.send(Math.max(1, plan.boundMs - afterMs)), secondStart).then((settled) => ({
        ...settled,
        afterMs,
      }));
    }
  }
  const winner = await firstAnswer(second ? [first, second] : [first]);
  void Promise.all([first, second]).then(([one, two]) =>
    told?.(
      {
        resendMark: plan.resendMark,
        boundMs: plan.boundMs,
        first: one.fate,
        ...(two ? { second: { ...two.fate, afterMs: Math.round(two.afterMs) } } : {}),
        ...(winner ? { used: winner === one ? 'first' : 'second' } : {}),
      },
      { first: sendingOf(one), second: two && sendingOf(two) },
    ),
  );
  if (winner) return answerOf(winner);
  const [one, two] = await Promise.all([first, second]);
  const error = 'error' in one ? one.error : new TransportError('no answer', 'timeout');
  if (!two || !('error' in two)) throw error;
  throw new TransportError(
    `${error.message}; sent again after ${Math.round(two.afterMs)} ms: ${two.error.message}`,
    error.kind,
  );
}
