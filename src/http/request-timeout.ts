// How long a request waits for its answer. CONFORMANCE_REQUEST_TIMEOUT_MS fixes it. Otherwise it is learned
// from the target's own answers to the same operation: 10 × their 99th percentile (below 100 answers, the
// slowest); an operation with fewer than 3 answers waits 10 × the slowest answer to any; all between a floor of
// 1 s and a ceiling of 10 s (the old fixed default, and the wait before any answer: no run waits longer than
// before). Generous, as a cut answer is charged to the server. The run's workers learn together, through the
// run's coordinator (src/coordinator/server.ts).
import type { SentRequest } from './exchange.ts';

export const TIMEOUT_RULE = {
  factor: 10,
  quantile: 0.99,
  floorMs: 1_000,
  ceilingMs: 10_000,
  /** Answers to an operation before its own times are trusted. */
  minAnswers: 3,
  /** The latest answers of an operation that count (a target's speed may change over a run). */
  window: 200,
} as const;

/** A request's timeout, and how it was set (for the failure that names it). */
export interface Timeout {
  ms: number;
  how: string;
}

export interface RequestTimeouts {
  timeoutFor(request: SentRequest): Promise<Timeout>;
  /** The request was answered after `ms`. */
  answered(request: SentRequest, ms: number): void;
}

/** What a request is, for learning: its operation (`listCycles`), or its method and path. */
export type OperationOf = (request: SentRequest) => string;

/** The method and path, ids (all digits, or a UUID) read as `{id}`. */
export const methodAndPath: OperationOf = ({ method, url }) =>
  `${method} ${new URL(url).pathname.replace(/\/(\d+|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})(?=\/|$)/gi, '/{id}')}`;

/** The key of a learned table that holds the timeout of an operation with too few answers of its own. */
export const ANY_OPERATION = '*';

/** Learned timeouts by operation (and ANY_OPERATION); empty before the first answer. */
export type LearnedTable = Record<string, number>;

const timeoutAfter = (ms: number): number => {
  const { factor, floorMs, ceilingMs } = TIMEOUT_RULE;
  return Math.round(Math.min(ceilingMs, Math.max(floorMs, factor * ms)));
};

/** The target's latest answer times, by operation, and the timeouts they teach. */
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

  /** The timeout the answers to `operation` teach; undefined while they are too few. */
  of(operation: string): number | undefined {
    const times = this.byOperation.get(operation) ?? [];
    if (times.length < TIMEOUT_RULE.minAnswers) return undefined;
    const sorted = [...times].sort((a, b) => a - b);
    return timeoutAfter(sorted[Math.ceil(TIMEOUT_RULE.quantile * sorted.length) - 1] as number);
  }

  /** The timeout of an operation with too few answers: from the slowest answer (undefined: none yet). */
  ofAny(): number | undefined {
    return this.slowest === undefined ? undefined : timeoutAfter(this.slowest);
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

/** A request's timeout: what the run learned, else what this client's own answers teach. */
function timeoutOf(operation: string, run: LearnedTable, own: AnswerTimes): Timeout {
  const override = 'CONFORMANCE_REQUEST_TIMEOUT_MS sets it';
  const ms = run[operation] ?? own.of(operation);
  if (ms !== undefined) return { ms, how: `learned from the target's answers to ${operation}; ${override}` };
  const known = [run[ANY_OPERATION], own.ofAny()].filter((any) => any !== undefined);
  if (known.length > 0)
    return {
      ms: Math.max(...known),
      how: `learned from the target's slowest answer (too few to ${operation} yet); ${override}`,
    };
  return { ms: TIMEOUT_RULE.ceilingMs, how: `the ceiling: no answer to learn from yet; ${override}` };
}

/** The timeout CONFORMANCE_REQUEST_TIMEOUT_MS sets. */
export const fixedTimeouts = (ms: number): RequestTimeouts => ({
  timeoutFor: async () => ({ ms, how: 'CONFORMANCE_REQUEST_TIMEOUT_MS' }),
  answered: () => {},
});

/** Hands the answers seen since the last call to the run's learning; resolves with the run's learned table. */
export type ShareAnswers = (answers: [string, number][]) => Promise<LearnedTable>;

/** Answers handed to the run together, so that learning costs the run one question per batch. */
const BATCH = 16;

/** Timeouts learned from the answers of this client alone, or (with `share`) of the whole run. */
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
    async timeoutFor(request) {
      // A new worker starts from what the run has learned.
      started ??= shareNow();
      await started;
      return timeoutOf(operationOf(request), learned ?? {}, own);
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
