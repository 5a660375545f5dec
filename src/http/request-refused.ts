// A request the suite stopped: either not sent, because the run cannot afford it (a rate-limit wait longer
// than the run has left, a target that stopped answering), or not sent again, because the target kept
// refusing it (rate-limited.ts) or the transport lost it in a race a write is never retried after
// (transport.ts). Never a failure of the target: it carries its finding, the check that needed the request
// not verified, naming the request, the reason and whose side it is on. It travels as any error does, through
// a read other checks share too, and ends each check it reaches where a check's failure would
// (src/worker/suite/ending-recorder.ts).
import type { SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

/** Whose side a stop is on: the run's own budget, what the target answered, or the transport's race. */
export type StopSide = 'run' | 'target' | 'transport';

const STOPPED: Record<StopSide, (sent: string, reason: string) => string> = {
  run: (sent, reason) => `${reason}: ${sent} was not sent`,
  target: (sent, reason) =>
    `${sent} was not sent again: the target ${reason}: on the target's side, not the run's budget`,
  transport: (sent, reason) =>
    `${sent} got no answer: ${reason}, a race of the transport (RFC 9112 §9.3.1), not the target's failure; a write is never sent again automatically`,
};

export class RequestRefused extends Error {
  /** Its finding (src/protocol/finding.ts), but for the requirement: that of the check it stops. */
  readonly finding: { outcome: 'not-verified'; message: string };

  constructor(
    readonly request: Pick<SentRequest, 'method' | 'url'>,
    /** Why the run cannot afford it; on the target's side, what the target did ("answered 429 5 times…"). */
    readonly reason: string,
    readonly side: StopSide = 'run',
  ) {
    super(STOPPED[side](`${request.method} ${redactText(request.url)}`, reason));
    this.name = 'RequestRefused';
    this.finding = { outcome: 'not-verified', message: this.message };
  }
}
