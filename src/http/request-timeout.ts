// How long a request waits for its answer, and what it does meanwhile. The bound: a request without an
// answer by then is unanswered, charged to the server; 30 s, what a client of a production API accepts
// (gateways cut at 29 to 100 s, Playwright's own default is 30 s); CONFORMANCE_REQUEST_TIMEOUT_MS sets it.
// Past 1 s an answer is slow (the report lists it). The resend mark: the p99 of the target's latest answers to
// the same operation (below 100 answers, the slowest), between 1 s and 10 s (fewer than 3 answers: the slowest
// answer to any; none yet: 10 s); a read still unanswered then is sent again beside the first (src/http/
// second-sending.ts), so a lost answer costs the run the resend mark, not the bound. The run's workers learn
// together, through the run's coordinator (src/runner/coordinator/server.ts).
import type { SentRequest } from './exchange.ts';

export const TIMEOUT_RULE = {
  /** Without an answer by then, a request is unanswered (CONFORMANCE_REQUEST_TIMEOUT_MS sets it). */
  boundMs: 30_000,
  /** Past it an answer is slow; the resend mark is never earlier. */
  slowMs: 1_000,
  /** The resend mark: this quantile of an operation's latest answers, at most the ceiling. */
  quantile: 0.99,
  resendCeilingMs: 10_000,
  /** Answers to an operation before its own times are trusted. */
  minAnswers: 3,
  /** The latest answers of an operation that count (a target's speed may change over a run). */
  window: 200,
} as const;

/** When a read still unanswered is sent again, and how that was learned (for the report that lists it). */
export interface ResendMark {
  ms: number;
  how: string;
}

export interface RequestTimeouts {
  resendMarkFor(request: SentRequest): Promise<ResendMark>;
  /** The request was answered after `ms`. */
  answered(request: SentRequest, ms: number): void;
}

/** What a request is, for learning: its operation (`listCycles`), or its method and path. */
export type OperationOf = (request: SentRequest) => string;

/** The method and path, ids (all digits, or a UUID) read as `{id}`. */
export const methodAndPath: OperationOf = ({ method, url }) =>
  `${method} ${new URL(url).pathname.replace(/\/(\d+|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})(?=\/|$)/gi, '/{id}')}`;

/** The key of a learned table that holds the resend mark of an operation with too few answers of its own. */
export const ANY_OPERATION = '*';

/** Learned resend marks by operation (and ANY_OPERATION); empty before the first answer. */
export type LearnedTable = Record<string, number>;

const markAt = (ms: number): number => {
  const { slowMs, resendCeilingMs } = TIMEOUT_RULE;
  return Math.round(Math.min(resendCeilingMs, Math.max(slowMs, ms)));
};

/** The target's latest answer times, by operation, and the resend marks they teach. */
export class AnswerTimes {
  private readonly byOperation = new Map<string, number[]>();
  private slowest: number | undefined;

  add(operation: string, ms: number): void {
    const times = this.byOperation.get(operation) ?? [];
    times.push(ms);
    if (times.length > TIMEOUT_RULE.window) times.shift();
    this.byOperation.set(operation, times);
    this.slowest = Math.max(this.slowest ?? 0, ms);
  }

  /** The resend mark the answers to `operation` teach; undefined while they are too few. */
  of(operation: string): number | undefined {
    const times = this.byOperation.get(operation) ?? [];
    if (times.length < TIMEOUT_RULE.minAnswers) return undefined;
    const sorted = [...times].sort((a, b) => a - b);
    return markAt(sorted[Math.ceil(TIMEOUT_RULE.quantile * sorted.length) - 1] as number);
  }

  /** The resend mark of an operation with too few answers: the slowest answer (undefined: none yet). */
  ofAny(): number | undefined {
    return this.slowest === undefined ? undefined : markAt(this.slowest);
  }

  table(): LearnedTable {
    const table: LearnedTable = {};
    for (const operation of this.byOperation.keys()) {
      const ms = this.of(operation);
      if (ms !== undefined) table[operation] = ms;
    }
    const any = this.ofAny();
    if (any !== undefined) table[ANY_OPERATION] = any;
    return table;
  }
}

/** A request's resend mark: what the run learned, else what this client's own answers teach. */
function resendMarkOf(operation: string, run: LearnedTable, own: AnswerTimes): ResendMark {
  const ms = run[operation] ?? own.of(operation);
  if (ms !== undefined) return { ms, how: `the p99 of the target's answers to ${operation}` };
  const known = [run[ANY_OPERATION], own.ofAny()].filter((any) => any !== undefined);
  if (known.length > 0)
    return { ms: Math.max(...known), how: `the target's slowest answer (too few to ${operation} yet)` };
  return { ms: TIMEOUT_RULE.resendCeilingMs, how: 'the ceiling: no answer to learn from yet' };
}

/** Hands the answers seen since the last call to the run's learning; resolves with the run's learned table. */
export type ShareAnswers = (answers: [string, number][]) => Promise<LearnedTable>;

/** Answers handed to the run together, so that learning costs the run one question per batch. */
const BATCH = 16;

/** Resend marks learned from the answers of this client alone, or (with `share`) of the whole run. */
export function learnedTimeouts(operationOf: OperationOf, share?: ShareAnswers): RequestTimeouts {
  const own = new AnswerTimes();
  let learned: LearnedTable | undefined;
  const unshared: [string, number][] = [];
  let sharing: Promise<void> | undefined;
  const shareNow = (): Promise<void> => {
    if (!share) return Promise.resolve();
    sharing ??= share(unshared.splice(0))
      .then(
        (table) => {
          learned = table;
        },
        // The coordinator is the suite's own: while it cannot answer, this client's own answers teach.
        () => {},
      )
      .finally(() => {
        sharing = undefined;
      });
    return sharing;
  };
  let started: Promise<void> | undefined;
  return {
    async resendMarkFor(request) {
      // A new worker starts from what the run has learned.
      started ??= shareNow();
      await started;
      return resendMarkOf(operationOf(request), learned ?? {}, own);
    },
    answered(request, ms) {
      const operation = operationOf(request);
      own.add(operation, ms);
      if (!share) return;
      unshared.push([operation, ms]);
      if (unshared.length >= BATCH) void shareNow();
    },
  };
}
