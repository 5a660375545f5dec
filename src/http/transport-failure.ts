// A request that got no complete response (timeout, connection reset, socket hang up, redirect loop): the
// error names the request (method, URL, curl line) and the cause, every credential redacted. Playwright's
// call log (which lists the request headers, Authorization included) is never part of it.
import { curl, type SentRequest } from './exchange.ts';
import { redactText } from './redact.ts';

export class TransportFailure extends Error {
  /** The requirement a check attributes the failure to, when it knows it. */
  requirement?: string;

  constructor(
    readonly request: SentRequest,
    /** Why the request failed, redacted (`timed out after 1000 ms`, `read ECONNRESET`, …). */
    readonly reason: string,
    /** More context, appended (e.g. fast-check's counterexample), redacted. */
    readonly detail?: string,
  ) {
    super(
      `${request.method} ${redactText(request.url)} failed: ${reason}\n  reproduce: ${curl(request)}` +
        (detail ? `\n${detail}` : ''),
    );
    this.name = 'TransportFailure';
  }
}

/** The first line of a Playwright/Node error, without the API prefix and the call log. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [line = ''] = message.split(/\r?\n(?:Call log:)?/, 1);
  return line.replace(/^\w+\.\w+:\s*/, '').trim();
}

/** The cause of a failed request, in words (redacted). */
export function transportReason(error: unknown, timeoutMs: number | undefined): string {
  const line = firstLine(error);
  if (/Timeout \d+ms exceeded|timed? ?out/i.test(line) && timeoutMs !== undefined)
    return `no response: timed out after ${timeoutMs} ms (CONFORMANCE_REQUEST_TIMEOUT_MS)`;
  if (/redirect/i.test(line)) return `redirect loop: ${redactText(line)}`;
  return redactText(line || 'request failed');
}
