// RL-429 judged from what the target announces, not from the machine's speed. Requests sent one after another
// are counted by the target in that order: one served after a served one that left none remaining, in the
// same window, was served over the limit. Whatever its window's start (the client's first request, a clock
// boundary), a new window announces a fuller remaining count or a later reset. Where the target announces no
// remaining count, only what no window could allow is over the limit.

/** What one answer of the burst announces. */
export interface CountedAnswer {
  served: boolean;
  remaining?: number;
  resetSeconds?: number;
}

/** Whether `next` was counted in the window of `previous`, by what both announce (false when they cannot tell). */
function sameWindow(previous: CountedAnswer, next: CountedAnswer, limit: number): boolean {
  if (previous.remaining === undefined || next.remaining === undefined) return false;
  if (next.remaining > previous.remaining) return false;
  if (previous.resetSeconds === undefined || next.resetSeconds === undefined) return limit > 1;
  // With a limit of 1 every served answer says 0 remaining: only a reset that went down tells the window.
  return limit > 1 ? next.resetSeconds <= previous.resetSeconds : next.resetSeconds < previous.resetSeconds;
}

/** The positions in `sequence` (answers of requests sent one after another) of those served over the limit. */
export function servedOverLimit(sequence: readonly CountedAnswer[], limit: number): number[] {
  return sequence.flatMap((next, index) => {
    const previous = sequence[index - 1];
    const over =
      previous?.served === true &&
      next.served &&
      previous.remaining === 0 &&
      sameWindow(previous, next, limit);
    return over ? [index] : [];
  });
}

/** How many times the announced count went back up in `sequence`: the windows it crossed into. */
export const windowsEntered = (sequence: readonly CountedAnswer[]): number =>
  sequence.filter((next, index) => {
    const previous = sequence[index - 1];
    return (
      previous?.remaining !== undefined && next.remaining !== undefined && next.remaining > previous.remaining
    );
  }).length;

/** The most windows of `windowSeconds` a stretch of `durationMs` can touch, however they are aligned. */
export const windowsTouched = (durationMs: number, windowSeconds: number): number =>
  Math.ceil(Math.max(0, durationMs) / (windowSeconds * 1000)) + 1;
