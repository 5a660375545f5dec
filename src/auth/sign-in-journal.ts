// What a run knows of its sign-ins, shared by global setup's preflight and every worker (one JSON line per
// event in the run's directory; `npm run login` and the doctor keep theirs in memory): the sign-in steps that
// answered within a complete sign-in (a 4xx there later is the server's, not the configuration's), the
// targets the run started itself (their configuration is the suite's own: any 4xx is the server's), each
// sign-in's outcome, and the users whose sign-in needs a person. Two server failures in a row and a check
// that needs a new sign-in is blocked by AUTH-CODE-FLOW, which they already fail: one failure may be a blip,
// two mean a broken sign-in that each check would meet again, at the cost of its requests.

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactText } from '../http/redact.ts';
import { readJsonLines } from '../run-state/json-lines.ts';
import { reportPath } from '../run-state/reports-dir.ts';
import { type ConfiguredUser, PersonNeeded, SignInBlocked } from './sign-in-errors.ts';

/** A request of a sign-in: its method and URL (the query is left out: it changes with every sign-in). */
export interface SignInStepRequest {
  method: string;
  url: string;
}

/** A step of a sign-in and its answer's status. */
interface AnsweredStep {
  request: SignInStepRequest;
  status: number;
}

type JournalEvent =
  | { own: string }
  | { worked: string[] }
  | { outcome: 'signed-in' }
  | { outcome: 'failed'; what: string }
  | { person: ConfiguredUser; reason: string };

/**
 * A step's identity: method and URL without its query; a post carries the user's own input (a password, a
 * code), so it is the same step for the same user only.
 */
const stepKey = ({ method, url }: SignInStepRequest, user: ConfiguredUser): string => {
  const { origin, pathname } = new URL(url);
  return `${method} ${origin}${pathname}${method === 'GET' ? '' : ` (user ${user})`}`;
};

export class SignInJournal {
  constructor(
    private readonly events: () => JournalEvent[],
    private readonly append: (event: JournalEvent) => void,
  ) {}

  /** The target at `url` was started by the run: its configuration is the suite's own. */
  ownTarget(url: string): void {
    this.append({ own: new URL(url).origin });
  }

  /**
   * Why a 4xx of `step` is the server's, if it is: the step answered within a sign-in of `user` earlier in
   * the run, or the run started the target (its configuration is the suite's own).
   */
  workedBefore(step: SignInStepRequest, user: ConfiguredUser): string | undefined {
    const key = stepKey(step, user);
    const { origin } = new URL(step.url);
    const events = this.events();
    if (events.some((event) => 'own' in event && event.own === origin))
      return "on a target the run started, whose configuration is the suite's own";
    if (events.some((event) => 'worked' in event && event.worked.includes(key)))
      return 'where it answered within a sign-in earlier in this run';
    return undefined;
  }

  /** A sign-in of `user` ended with a code: its steps that answered below 400 worked. */
  signedIn(steps: readonly AnsweredStep[], user: ConfiguredUser): void {
    this.stepsWorked(steps, user);
    this.append({ outcome: 'signed-in' });
  }

  /**
   * Steps that answered below 400 (a token endpoint's grant too, without a sign-in's outcome). A 4xx a page
   * went on past (a login form shown again) did not work.
   */
  stepsWorked(steps: readonly AnsweredStep[], user: ConfiguredUser): void {
    const worked = steps.filter(({ status }) => status < 400).map(({ request }) => stepKey(request, user));
    if (worked.length > 0) this.append({ worked: [...new Set(worked)] });
  }

  /** The server failed a sign-in: `what` it did, in one line. */
  failed(what: string): void {
    this.append({ outcome: 'failed', what: redactText(what) });
  }

  personNeeded(error: PersonNeeded): void {
    this.append({ person: error.user, reason: error.reason });
  }

  /**
   * Why a check needing a new sign-in of `user` does not try one: the user's sign-in needs a person, or the
   * server failed the run's last two sign-ins. Undefined: sign in.
   */
  stop(user: ConfiguredUser): PersonNeeded | SignInBlocked | undefined {
    const events = this.events();
    // The first meeting's words: every check it stops names the same cause.
    const person = events.find((event) => 'person' in event && event.person === user);
    if (person && 'person' in person) return new PersonNeeded(user, person.reason);
    const outcomes = events.filter((event) => 'outcome' in event);
    const [before, last] = outcomes.slice(-2);
    if (last && 'what' in last && before && 'what' in before)
      return new SignInBlocked(
        `the server failed the run's last two sign-ins (the last: ${last.what}): no new sign-in is tried`,
      );
    return undefined;
  }
}

/** A journal of this process alone (npm run login, the doctor, self tests). */
export function memoryJournal(): SignInJournal {
  const events: JournalEvent[] = [];
  return new SignInJournal(
    () => events,
    (event) => events.push(event),
  );
}

const runFile = (): string => reportPath('.run/sign-ins.jsonl');

/**
 * The run's journal of the sign-ins at `authUrl`, shared by the run's processes through its directory. Each
 * target keeps its own: the instances of a matrix run (the gates) are servers of their own, and one's broken
 * sign-in says nothing of another's.
 */
export function runJournal(authUrl: string): SignInJournal {
  const target = new URL(authUrl).origin;
  return new SignInJournal(
    () =>
      readJsonLines<JournalEvent & { target?: string }>(runFile()).filter((event) => event.target === target),
    (event) => {
      mkdirSync(dirname(runFile()), { recursive: true });
      appendFileSync(runFile(), `${JSON.stringify({ ...event, target })}\n`);
    },
  );
}
