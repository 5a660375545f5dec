// Catches the authorization redirect on a loopback redirect URI (RFC 8252 §7.3) when a person signs in in a
// browser of their own: a one-shot HTTP listener on the redirect URI's host and port answers the redirect and
// hands over the URL it reached; a URL pasted on a terminal's standard input does as well.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const PAGE = '<!doctype html><title>Signed in</title><p>Signed in. You may close this window.</p>';

export interface RedirectCatcher {
  /** The URL the redirect reached. */
  reached: Promise<string>;
  /** How the URL can reach this process (for the message to the person). */
  how: string;
  close(): void;
}

export async function catchRedirect(redirectUri: string): Promise<RedirectCatcher> {
  const target = new URL(redirectUri);
  let deliver: (url: string) => void = () => undefined;
  const reached = new Promise<string>((resolve) => {
    deliver = resolve;
  });
  const ways: string[] = [];
  const closers: (() => void)[] = [];
  if (target.protocol === 'http:' && LOOPBACK.has(target.hostname)) {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', redirectUri);
      if (url.pathname !== target.pathname) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      deliver(url.toString());
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(Number(target.port || 80), target.hostname.replace(/^\[|\]$/g, ''), () => resolve(true));
    });
    if (listening) {
      ways.push(`the redirect to ${target.origin}${target.pathname} is caught here`);
      closers.push(() => server.close());
    }
  }
  if (process.stdin.isTTY) {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim().startsWith(`${target.origin}${target.pathname}`)) deliver(line.trim());
    });
    ways.push('or paste the address the browser ends on here');
    closers.push(() => lines.close());
  }
  return {
    reached,
    how: ways.join('; ') || 'nothing can catch the redirect here (not a loopback redirect URI, no terminal)',
    close: () => {
      for (const close of closers) close();
    },
  };
}
