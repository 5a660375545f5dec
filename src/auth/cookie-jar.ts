// The cookies an authorization server sets during one sign-in (its session, its CSRF cookie), sent back by
// the HTTP form filler as a browser would: by host and path, dropped when expired. The transport joins
// repeated Set-Cookie headers with ", ", which an Expires date also holds: a cookie starts where a name and
// "=" follow the comma.

interface Cookie {
  host: string;
  path: string;
  name: string;
  value: string;
}

const SEPARATOR = /,\s*(?=[^;,=\s]+=)/;

export class CookieJar {
  readonly #cookies = new Map<string, Cookie>();

  /** Keeps the cookies of a response's (joined) Set-Cookie header. */
  store(url: string, setCookie: string | undefined): void {
    const { hostname } = new URL(url);
    for (const line of setCookie ? setCookie.split(SEPARATOR) : []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair.indexOf('=');
      if (equals < 1) continue;
      const name = pair.slice(0, equals);
      const attribute = (wanted: string) =>
        attributes.map((part) => part.split('=')).find(([key]) => key?.toLowerCase() === wanted)?.[1];
      const path = attribute('path') ?? '/';
      const maxAge = attribute('max-age');
      const expires = attribute('expires');
      const gone =
        (maxAge !== undefined && Number(maxAge) <= 0) ||
        (expires !== undefined && Date.parse(expires) <= Date.now());
      const key = `${hostname} ${path} ${name}`;
      if (gone) this.#cookies.delete(key);
      else this.#cookies.set(key, { host: hostname, path, name, value: pair.slice(equals + 1) });
    }
  }

  /** The Cookie header for a request to `url`; undefined when no cookie applies. */
  header(url: string): string | undefined {
    const { hostname, pathname } = new URL(url);
    const sent = [...this.#cookies.values()]
      .filter((cookie) => cookie.host === hostname && pathname.startsWith(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`);
    return sent.length > 0 ? sent.join('; ') : undefined;
  }
}
