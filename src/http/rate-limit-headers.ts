// What a response says about the rate limit it was counted against, read from the headers targets use:
// - X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds until the reset, or its epoch time);
//   X-RateLimit-Limit may list the policies after the governing limit: `100, 100;window=60, 10000;window=86400`
//   (or `w=`), the window being that of the policy whose limit is the governing one;
// - the IETF fields of draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy (`"name";q=LIMIT;w=WINDOW`,
//   or the earlier drafts' `LIMIT;w=WINDOW`) and RateLimit (`"name";r=REMAINING;t=RESET`, or the earlier
//   `limit=L, remaining=R, reset=T`), and the earlier drafts' RateLimit-Limit/-Remaining/-Reset;
// - Retry-After (seconds, or an HTTP date).
// Where a response names several policies, the one with the fewest remaining requests counts (the first
// to run out), and the policy of the same name gives its limit and window.

export interface RateLimitPolicy {
  limit: number;
  windowSeconds?: number;
}

export interface AnnouncedRateLimit {
  /** The governing policy's limit and window. */
  limit?: number;
  windowSeconds?: number;
  /** Every policy announced (X-RateLimit-Limit's list, or RateLimit-Policy), in the order given. */
  policies?: RateLimitPolicy[];
  remaining?: number;
  /** Seconds until the window resets. */
  resetSeconds?: number;
  retryAfterSeconds?: number;
  /** The headers it was read from. */
  sources: string[];
}

/** Seconds from a delta, an epoch time (a large number) or an HTTP date; undefined when none of these. */
export function secondsFrom(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) return number > 1e9 ? number - now / 1000 : number;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : (date - now) / 1000;
}

const count = (value: string | undefined): number | undefined => {
  const number = Number(value?.trim());
  return value !== undefined && value.trim() !== '' && Number.isFinite(number) && number >= 0
    ? number
    : undefined;
};

interface Member {
  /** The item (a policy name, or a number in the earlier drafts), unquoted. */
  item: string;
  params: Record<string, string>;
}

/** The members of a structured-field list (RFC 9651), enough for these fields: `item;k=v;k=v, ...`. */
function members(field: string): Member[] {
  const parts = field.match(/(?:"[^"]*"|[^,])+/g) ?? [];
  return parts.map((part) => {
    const [item = '', ...params] = part.split(';').map((piece) => piece.trim());
    return {
      item: item.replace(/^"(.*)"$/, '$1'),
      params: Object.fromEntries(
        params.map((param) => {
          const [key = '', value = ''] = param.split('=');
          return [key.trim().toLowerCase(), value.trim().replace(/^"(.*)"$/, '$1')];
        }),
      ),
    };
  });
}

/** RateLimit: `"name";r=R;t=T` items (the current draft) or `limit=L, remaining=R, reset=T` (draft 07). */
function rateLimitField(field: string): Pick<AnnouncedRateLimit, 'limit' | 'remaining' | 'resetSeconds'> & {
  policy?: string;
} {
  const list = members(field);
  const dictionary = Object.fromEntries(
    list
      .filter((member) => member.item.includes('='))
      .map((member) => member.item.split('=').map((s) => s.trim())),
  ) as Record<string, string>;
  if (dictionary.remaining !== undefined || dictionary.limit !== undefined)
    return {
      limit: count(dictionary.limit),
      remaining: count(dictionary.remaining),
      resetSeconds: count(dictionary.reset),
    };
  const items = list.filter((member) => count(member.params.r) !== undefined);
  const first = items.sort((a, b) => Number(a.params.r) - Number(b.params.r))[0];
  return first
    ? { policy: first.item, remaining: count(first.params.r), resetSeconds: count(first.params.t) }
    : {};
}

type Policies = Pick<AnnouncedRateLimit, 'limit' | 'windowSeconds' | 'policies'>;

/** RateLimit-Policy: `"name";q=L;w=W` items, or `L;w=W` (earlier drafts); the named one, else the smallest. */
function policyField(field: string, name: string | undefined): Policies {
  const named = members(field).flatMap((member) => {
    const limit = count(member.params.q) ?? count(member.item);
    return limit === undefined ? [] : [{ name: member.item, limit, windowSeconds: count(member.params.w) }];
  });
  const chosen =
    named.find((policy) => name !== undefined && policy.name === name) ??
    [...named].sort((a, b) => a.limit - b.limit)[0];
  if (!chosen) return {};
  const policies = named.map(({ limit, windowSeconds }) => ({ limit, windowSeconds }));
  return { limit: chosen.limit, windowSeconds: chosen.windowSeconds, policies };
}

/**
 * X-RateLimit-Limit: a number, or the governing limit followed by the policies, `L, L;window=W, ...` (also
 * `L;w=W`): every item with a window is a policy; the governing window is the smallest of those whose limit
 * is the governing one.
 */
function xLimitField(field: string): Policies {
  const list = members(field);
  const limit = count(list[0]?.item);
  if (limit === undefined) return {};
  const policies = list.flatMap((member) => {
    const policyLimit = count(member.item);
    const windowSeconds = count(member.params.window ?? member.params.w);
    return policyLimit === undefined || windowSeconds === undefined
      ? []
      : [{ limit: policyLimit, windowSeconds }];
  });
  const windows = policies.filter((policy) => policy.limit === limit).map((policy) => policy.windowSeconds);
  return {
    limit,
    windowSeconds: windows.length > 0 ? Math.min(...windows) : undefined,
    ...(policies.length > 0 ? { policies } : {}),
  };
}

/** The rate limit a response announces (lower-case header names), or undefined when it announces none. */
export function announcedRateLimit(
  headers: Readonly<Record<string, string | undefined>>,
): AnnouncedRateLimit | undefined {
  const sources: string[] = [];
  const read = <T>(name: string, parse: (value: string) => T): T | undefined => {
    const value = headers[name];
    if (value === undefined) return undefined;
    sources.push(name);
    return parse(value);
  };
  const ietf = read('ratelimit', rateLimitField) ?? {};
  const policy = read('ratelimit-policy', (value) => policyField(value, ietf.policy)) ?? {};
  const ietfLimit = policy.limit ?? ietf.limit ?? read('ratelimit-limit', count);
  // X-RateLimit-Limit only where no IETF field states the limit.
  const x = ietfLimit === undefined ? (read('x-ratelimit-limit', xLimitField) ?? {}) : {};
  const policies = policy.policies ?? x.policies;
  const announced: AnnouncedRateLimit = {
    limit: ietfLimit ?? x.limit,
    windowSeconds: policy.windowSeconds ?? x.windowSeconds,
    ...(policies ? { policies } : {}),
    remaining: ietf.remaining ?? read('ratelimit-remaining', count) ?? read('x-ratelimit-remaining', count),
    resetSeconds:
      ietf.resetSeconds ?? read('ratelimit-reset', secondsFrom) ?? read('x-ratelimit-reset', secondsFrom),
    retryAfterSeconds: read('retry-after', secondsFrom),
    sources,
  };
  return sources.length > 0 ? announced : undefined;
}
