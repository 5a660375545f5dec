// A long run's progress on the console, against the requests its depth plan expects (src/config/depth-plan.ts,
// measured on the embedded sandbox with `npm run bench`: a target whose users have more records sends more).

/** Progress: `412/720 requests planned, 341 s left of the run budget` (no plan known yet: the count alone). */
export function progressLine(done: number, planned: number | undefined, secondsLeft: number): string {
  const sent = planned === undefined ? `${done} requests sent` : `${done}/${planned} requests planned`;
  return `${sent}, ${Math.max(0, Math.round(secondsLeft))} s left of the run budget`;
}
