// The token store (CONFORMANCE_TOKEN_STORE): a JSON file, mode 0600, holding per user the refresh token of
// the grant `npm run login` obtained, and per user and partner the access tokens issued to the suite with
// their expiry, so that a run needs no browser and, once one has expired, an expired token of the target's
// own making is at hand (AUTH-EXPIRED-TOKEN, PAUTH-EXPIRED-TOKEN). Every change is made under an exclusive
// lock file and written to a temporary file renamed over the store, so concurrent runs and workers never
// lose a rotated refresh token and a reader never sees half a file.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { registerSecret } from '../http/redact.ts';

export interface StoredGrant {
  refreshToken: string;
  /** The scopes the grant was given (space-separated). */
  scopes: string;
  updatedAt: string;
}

export interface StoredAccessToken {
  accessToken: string;
  scopes: string;
  /** When the token expires, by the expires_in its server stated (ISO 8601). */
  expiresAt: string;
}

export interface TokenStoreData {
  version: 1;
  grants: Record<string, StoredGrant>;
  accessTokens: Record<string, StoredAccessToken[]>;
}

/** Per key and scope set: the newest live access tokens kept (the current one and the one it replaced). */
const KEPT_LIVE = 2;
/** A lock older than this is taken over even if its owner still runs (a hung run). */
const LOCK_STALE_MS = 5 * 60_000;
const LOCK_WAIT_MS = 2 * 60_000;

/** The key of a user's grant and tokens: one store may serve several targets, clients and users. */
export const userKey = (authUrl: string, clientId: string, username: string): string =>
  `user ${clientId}@${authUrl} ${username}`;

/** The key of a partner's tokens. */
export const partnerKey = (baseUrl: string, clientId: string): string => `partner ${clientId}@${baseUrl}`;

const empty = (): TokenStoreData => ({ version: 1, grants: {}, accessTokens: {} });

/** Writes `text` to `path` atomically (a temporary file in the same directory, renamed), mode 0600. */
export function writeFileAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the process that wrote a lock file has ended (same machine: its pid is gone). */
function ownerEnded(lockPath: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lockPath, 'utf8'));
  } catch {
    return false; // just released, or being written: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class TokenStore {
  constructor(
    readonly path: string,
    /**
     * Told of each pause while another holder keeps the lock: a wait of the run's own (a worker refreshing
     * under it may be waiting for its rate-limit turn), which a test's timeout does not count.
     */
    private readonly onLockWait?: (waitMs: number) => void,
  ) {}

  /** The store's content (empty when the file does not exist yet); every token in it is redacted from output. */
  read(): TokenStoreData {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw error;
    }
    const data = JSON.parse(text) as TokenStoreData;
    if (data.version !== 1)
      throw new Error(`${this.path} is not a token store of this suite (version ${data.version})`);
    for (const grant of Object.values(data.grants)) registerSecret(grant.refreshToken);
    for (const list of Object.values(data.accessTokens))
      for (const token of list) registerSecret(token.accessToken);
    return data;
  }

  /**
   * Runs `change` on the content under the lock and writes the content back, even when `change` throws after
   * changing it (a refresh token rotated before a later failure must not be lost).
   */
  async update<T>(change: (data: TokenStoreData) => Promise<T> | T): Promise<T> {
    const release = await this.lock();
    try {
      const data = this.read();
      try {
        return await change(data);
      } finally {
        writeFileAtomically(this.path, `${JSON.stringify(data, null, 2)}\n`);
      }
    } finally {
      release();
    }
  }

  /** Records an access token issued for `key` (see recordAccessToken). */
  record(key: string, token: { accessToken: string; scopes: string; expiresIn?: number }): Promise<void> {
    return this.update((data) => recordAccessToken(data, key, token));
  }

  /**
   * The most recently expired access token of `key`, by the expiry its server stated: one of scope set
   * `scopes` if there is one (so only its expiry can be the reason for a refusal), else any.
   */
  expiredAccessToken(key: string, scopes?: string, now = Date.now()): StoredAccessToken | undefined {
    const expired = (this.read().accessTokens[key] ?? [])
      .filter((token) => Date.parse(token.expiresAt) <= now)
      .sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
    return expired.find((token) => token.scopes === scopes) ?? expired[0];
  }

  private async lock(): Promise<() => void> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(lockPath, 'wx', 0o600);
        writeFileSync(fd, String(process.pid));
        closeSync(fd);
        return () => rmSync(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const age = Date.now() - (statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (ownerEnded(lockPath) || age > LOCK_STALE_MS) rmSync(lockPath, { force: true });
      else if (Date.now() > deadline)
        throw new Error(
          `the token store ${this.path} stayed locked for ${LOCK_WAIT_MS / 1000} s (${lockPath})`,
        );
      else {
        const pauseMs = 10 + Math.random() * 40;
        this.onLockWait?.(Math.ceil(pauseMs));
        await sleep(pauseMs);
      }
    }
  }
}

/**
 * Records an access token issued for `key`, newest first, with its expiry (a token without expires_in is not
 * kept: it can never be known to have expired). Per scope set the newest live tokens and the most recently
 * expired one are kept, so the tokens a run replaces are there, expired, for a later run's expired-token checks.
 */
export function recordAccessToken(
  data: TokenStoreData,
  key: string,
  token: { accessToken: string; scopes: string; expiresIn?: number },
  now = Date.now(),
): void {
  if (token.expiresIn === undefined) return;
  const entry = {
    accessToken: token.accessToken,
    scopes: token.scopes,
    expiresAt: new Date(now + token.expiresIn * 1000).toISOString(),
  };
  const newestFirst = [entry, ...(data.accessTokens[key] ?? [])]
    .filter((old, index, all) => all.findIndex((other) => other.accessToken === old.accessToken) === index)
    .sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
  const kept: StoredAccessToken[] = [];
  for (const candidate of newestFirst) {
    const same = kept.filter((other) => other.scopes === candidate.scopes);
    const live = Date.parse(candidate.expiresAt) > now;
    const keep = live ? same.length < KEPT_LIVE : !same.some((other) => Date.parse(other.expiresAt) <= now);
    if (keep) kept.push(candidate);
  }
  data.accessTokens[key] = kept;
}
