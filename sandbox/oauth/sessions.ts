// Sign-in sessions of the authorization page: GET /oauth/oauth2/auth opens one (a cookie names it), the login
// form and the consent form each post its CSRF token back, and the consent ends it. Sessions live 10 minutes
// on the sandbox clock.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthorizationRequest } from './authorize.ts';

export const SESSION_COOKIE = 'sbx_auth_session';
export const SESSION_LIFETIME_MS = 10 * 60_000;

export interface SignInSession {
  request: AuthorizationRequest;
  csrfToken: string;
  expiresAt: number;
  /** The username an identifier-first sign-in was given on its first page. */
  username?: string;
  /** Set once the user has signed in: the consent step follows. */
  userId?: number;
  /** A second factor: the code sent by e-mail, and the user it signs in once given. */
  code?: string;
  pendingUserId?: number;
}

export type SessionLookup =
  | { status: 'ok'; session: SignInSession; id: string }
  | { status: 'missing' | 'expired' | 'csrf' };

const random = (): string => randomBytes(24).toString('base64url');

const same = (a: string, b: string): boolean => {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
};

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export class SignInSessions {
  readonly #sessions = new Map<string, SignInSession>();

  constructor(private readonly now: () => Date) {}

  open(request: AuthorizationRequest): { id: string; session: SignInSession } {
    const id = random();
    const session = { request, csrfToken: random(), expiresAt: this.now().getTime() + SESSION_LIFETIME_MS };
    this.#sessions.set(id, session);
    return { id, session };
  }

  /** The session named by the cookie, if the submitted CSRF token is its own. */
  check(id: string | undefined, csrfToken: string | undefined): SessionLookup {
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (!session || id === undefined) return { status: 'missing' };
    if (this.now().getTime() >= session.expiresAt) {
      this.#sessions.delete(id);
      return { status: 'expired' };
    }
    if (csrfToken === undefined || !same(csrfToken, session.csrfToken)) return { status: 'csrf' };
    return { status: 'ok', session, id };
  }

  /** The live session the cookie names, for a page of it that posts nothing (a consent frame's). */
  find(id: string | undefined): SignInSession | undefined {
    const session = id === undefined ? undefined : this.#sessions.get(id);
    return session && this.now().getTime() < session.expiresAt ? session : undefined;
  }

  close(id: string): void {
    this.#sessions.delete(id);
  }
}
