// A request that got no complete response (timeout, connection reset, socket hang up, refused, redirect loop): the
// error names the request (method, URL, curl line) and the cause, every credential redacted.
import { curl, type SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

export class TransportFailure extends Error {
  /** Why the request failed (`timed out after 1000 ms`, `read ECONNRESET`, …), redacted. */
  readonly reason: string;

  constructor(
    readonly request: SentRequest,
    reason: string,
    /** More context, appended (e.g. fast-check's counterexample). */
    detail?: string,
    /** No answer came: none within the bound, or the connection was lost (not refused, not a redirect loop). */
    readonly unanswered = false,
    /** Node's code of the failure (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…), where it gave one. */
    readonly code?: string,
  ) {
    const why = redactText(reason);
    super(
      `${request.method} ${redactText(request.url)} failed: ${why}\n  reproduce: ${curl(request)}` +
        (detail ? `\n${redactText(detail)}` : ''),
    );
    this.name = 'TransportFailure';
    this.reason = why;
  }
}
