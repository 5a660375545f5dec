// What the run observes once and many checks judge: a read remembered by the run's coordinator
// (src/runner/coordinator/server.ts) under a key, so that every worker of the run shares it. The first worker to
// ask reads it; the others wait for its value, their test's timeout growing by the wait (a wait for another
// worker's read, paced by the rate limit, is not a slow server). A read that fails is not remembered: the
// next asker reads again, and meets the failure itself. A read that got no answer blocks the askers that
// waited for it (src/worker/session/unanswered.ts), instead of each sending it again.
import type { UserToken } from '../../auth/user-oauth.ts';
import { createExchange, type Exchange } from '../../http/exchange.ts';
import { registerIssuedTokens, registerSecret } from '../../http/redact.ts';
import type { MemoClaim } from '../../protocol/coordinator-routes.ts';
import { ROUTES } from '../../protocol/coordinator-routes.ts';
import type { CoordinatorCall } from './coordinator-client.ts';
import { extendTestTimeout } from './run-waits.ts';
import { UnansweredFailure, unansweredElsewhere } from './unanswered.ts';

/** How a value travels to the coordinator and back (JSON). */
export interface Codec<T> {
  encode(value: T): unknown;
  decode(data: unknown): T;
}

const MAX_POLL_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RunMemo {
  constructor(
    private readonly call: CoordinatorCall,
    /** What keys are scoped by: a target instance of the run. */
    private readonly scope: string,
  ) {}

  async remember<T>(key: string, read: () => Promise<T>, codec: Codec<T>): Promise<T> {
    const scoped = `${this.scope} ${key}`;
    for (let poll = 20, waited = false; ; poll = Math.min(poll * 2, MAX_POLL_MS), waited = true) {
      const claim = (await this.call(ROUTES.memoClaim, { key: scoped, waited })) as MemoClaim;
      if (claim.kind === 'value') return codec.decode(claim.value);
      if (claim.kind === 'unanswered') throw unansweredElsewhere(claim.read);
      if (claim.kind === 'yours') {
        try {
          const value = await read();
          await this.call(ROUTES.memoPut, { key: scoped, value: codec.encode(value) });
          return value;
        } catch (error) {
          const unanswered = error instanceof UnansweredFailure ? error.read : undefined;
          await this.call(ROUTES.memoRelease, { key: scoped, unanswered });
          throw error;
        }
      }
      extendTestTimeout(poll);
      await sleep(poll);
    }
  }
}

type ExchangeData = Pick<Exchange, 'request' | 'status' | 'headers' | 'text' | 'timing' | 'operation'>;

const exchangeData = ({ request, status, headers, text, timing, operation }: Exchange): ExchangeData => ({
  request,
  status,
  headers,
  text,
  timing,
  operation,
});
/** An exchange as it arrives: a token its body carries is a secret here too, before anything could print it. */
const exchangeOf = (data: ExchangeData): Exchange => {
  registerIssuedTokens(data.text);
  return createExchange(data.request, data.status, data.headers, data.text, data.timing, data.operation);
};

/** One exchange (a single read, a token request, a generation of test data). */
export const exchangeCodec: Codec<Exchange> = {
  encode: exchangeData,
  decode: (data) => exchangeOf(data as ExchangeData),
};

/** A user token: JSON as it is, registered for redaction where it arrives. */
export const secretTokenCodec: Codec<UserToken> = {
  encode: (token) => token,
  decode: (data) => {
    const token = data as UserToken;
    registerSecret(token.accessToken);
    if (token.refreshToken) registerSecret(token.refreshToken);
    return token;
  },
};

/** Values that are JSON as they are. */
export const jsonCodec = <T>(): Codec<T> => ({ encode: (value) => value, decode: (data) => data as T });
