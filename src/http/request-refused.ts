// A request the suite stopped: either not sent, because the run cannot afford it (a rate-limit wait longer
// than the run has left, a target that stopped answering), or not sent again, because the target kept
// refusing it (rate-limited.ts). Never a failure of the target: the check that needed the request is not
// verified, naming the request, the reason and whose side it is on (src/suite/run-waits.ts).
import type { SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

/** Whose side a stop is on: the run's own budget, or what the target answered. */
export type StopSide = 'run' | 'target';

export class RequestRefused extends Error {
  constructor(
    readonly request: Pick<SentRequest, 'method' | 'url'>,
    /** Why the run cannot afford it; on the target's side, what the target did ("answered 429 5 times…"). */
    readonly reason: string,
    readonly side: StopSide = 'run',
  ) {
    const sent = `${request.method} ${redactText(request.url)}`;
    super(
      side === 'run'
        ? `${reason}: ${sent} was not sent`
        : `${sent} was not sent again: the target ${reason}: on the target's side, not the run's budget`,
    );
    this.name = 'RequestRefused';
  }
}
