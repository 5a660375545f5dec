// What the browser sign-in's pages answer, watched as it comes: each document's response, in any frame of the
// page (as an exchange, for src/auth/sign-in-answers.ts and the run's journal), a redirect chain that comes back to a
// request it made (the server's loop; the browser itself would follow it 20 times), and a navigation the
// browser refused: a certificate it does not trust (named as Node reads it), or its own redirect limit.
// What breaks the sign-in is kept as `failure`, and `failed` settles then.
import type { BrowserContext, Page, Request, Response } from '@playwright/test';
import { describeCertificate } from '../http/certificate.ts';
import { createExchange, type Exchange, exchangeLine } from '../http/exchange.ts';
import { redactText } from '../http/redact.ts';
import { LOCATION, serverLoop } from './sign-in-answers.ts';
import { CertificateUntrusted, SignInServerFailure } from './sign-in-errors.ts';

/** A request as an exchange, with the status it got (no body: the evidence is the request and the status). */
export const requestExchange = (request: Request, status: number, headers: Record<string, string> = {}) =>
  createExchange(
    {
      method: request.method(),
      url: request.url(),
      headers: request.headers(),
      ...(request.postData() === null ? {} : { body: request.postData() ?? undefined }),
    },
    status,
    headers,
    '',
  );

const responseExchange = (response: Response): Exchange =>
  requestExchange(response.request(), response.status(), response.headers());

/** A navigation's identity, for loops: method, URL, body and the cookies it carried (none once closed). */
export const requestKey = async (request: Request): Promise<string> =>
  `${request.method()} ${request.url()} ${request.postData() ?? ''} ${(await request.headerValue('cookie').catch(() => null)) ?? ''}`;

/** The requests of a redirect chain up to `request`, first first. */
function redirectChain(request: Request): Request[] {
  const chain = [request];
  for (let from = request.redirectedFrom(); from; from = from.redirectedFrom()) chain.unshift(from);
  return chain;
}

export class PageWatch {
  failure: Error | undefined;
  readonly failed: Promise<void>;
  #fail: () => void = () => undefined;
  /** The document responses of this sign-in, in every frame of its page, redirects included. */
  readonly #documents: Exchange[] = [];

  constructor(
    context: BrowserContext,
    private readonly page: Page,
  ) {
    this.failed = new Promise((resolve) => {
      this.#fail = resolve;
    });
    const ofPage = (request: Request) => request.isNavigationRequest() && request.frame().page() === page;
    context.on('response', (response) => {
      if (ofPage(response.request())) this.#documents.push(responseExchange(response));
    });
    context.on('request', (request) => {
      if (ofPage(request) && request.redirectedFrom()) void this.checkChain(request);
    });
    context.on('requestfailed', (request) => {
      if (ofPage(request)) void this.refused(request, request.failure()?.errorText ?? '');
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.#fail();
  }

  /** The redirect chain that led to `request`, checked for the server's loop. */
  private async checkChain(request: Request): Promise<void> {
    const chain = redirectChain(request);
    const keys = await Promise.all(chain.map(requestKey));
    const exchanges = chain.slice(0, -1).map((sent) => requestExchange(sent, 302));
    try {
      serverLoop(keys.slice(0, -1), keys.at(-1) ?? '', exchanges);
    } catch (error) {
      this.fail(error as Error);
    }
  }

  /** A navigation the browser refused: a certificate, or too many redirects, is named; the rest shows later. */
  private async refused(request: Request, errorText: string): Promise<void> {
    if (errorText.startsWith('net::ERR_CERT_')) {
      const certificate = await describeCertificate(request.url(), errorText);
      this.fail(
        new CertificateUntrusted(
          request.url(),
          `${errorText} at ${redactText(new URL(request.url()).origin)}: ${certificate} (the browser trusts what the run's Node trusts)`,
        ),
      );
    } else if (errorText === 'net::ERR_TOO_MANY_REDIRECTS') {
      const chain = redirectChain(request).map((sent) => requestExchange(sent, 302));
      const [first = requestExchange(request, 302)] = chain;
      this.fail(
        new SignInServerFailure(
          `the authorization server redirects in a loop: the browser gave up after ${chain.length} redirects (${errorText})`,
          { exchange: first, fields: [LOCATION] },
          `redirects: ${chain.slice(0, 5).map(exchangeLine).join(' | ')}`,
        ),
      );
    }
  }

  /** The response of the document now shown at `url` (its last that is not a redirect; default: the page's). */
  lastDocument(url = this.page.url()): Exchange | undefined {
    return [...this.#documents]
      .reverse()
      .find((exchange) => exchange.request.url === url && (exchange.status < 300 || exchange.status >= 400));
  }

  /** The steps of this sign-in, each with its answer. */
  steps(): readonly Exchange[] {
    return this.#documents;
  }
}
