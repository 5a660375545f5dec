// A request the suite stopped: either not sent, because the run cannot afford it (a rate-limit wait longer
// than the run has left, a target that stopped answering), or not sent again, because the target kept
// refusing it (rate-limited.ts). Never a failure of the target: it carries its finding, the check that
// needed the request not verified, naming the request, the reason and whose side it is on. It travels as
// any error does, through a read other checks share too, and ends each check it reaches where a check's
// failure would (src/worker/suite/ending-recorder.ts).
import type { SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

/** Whose side a stop is on: the run's own budget, or what the target answered. */
export type StopSide = 'run' | 'target';

export class RequestRefused extends Error {
  /** Its finding (src/protocol/finding.ts), but for the requirement: that of the check it stops. */
  readonly finding: { outcome: 'not-verified'; message: string };

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
    this.finding = { outcome: 'not-verified', message: this.message };
  }
}
