// What a run of each profile is expected to send under the budgeted plan (src/config/depth-plan.ts), per
// kind of credential, against which the console shows a long run's progress. The counts were measured on the embedded sandbox (`npm run bench`, whose table
// shows them beside each run's own): a target whose users have more records sends more pages.
import type { Profile } from '../config/suite-config.ts';
import type { RequestTally } from '../http/request-counter.ts';

export const REQUEST_PLAN: Readonly<Record<Profile, RequestTally>> = {
  'ci-gate': { user: 530, partner: 195, other: 100 },
  certification: { user: 506, partner: 195, other: 90 },
  smoke: { user: 24, partner: 2, other: 3 },
};

/** Progress against the plan: `412/720 requests planned, 341 s left of the run budget`. */
export function progressLine(done: number, planned: number, secondsLeft: number): string {
  return `${done}/${planned} requests planned, ${Math.max(0, Math.round(secondsLeft))} s left of the run budget`;
}
