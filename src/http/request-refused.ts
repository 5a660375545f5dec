// A request the suite did not send, because the run cannot afford it: a rate-limit wait longer than the run
// has left, or a target that stopped answering. Never a failure of the target: the check that needed the
// request is not verified, naming the request and the reason (src/suite/fixtures.ts).
import type { SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

export class RequestRefused extends Error {
  constructor(
    readonly request: Pick<SentRequest, 'method' | 'url'>,
    readonly reason: string,
  ) {
    super(`${reason}: ${request.method} ${redactText(request.url)} was not sent`);
    this.name = 'RequestRefused';
  }
}
