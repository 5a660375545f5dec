// The smoke profile's request budget (src/http/request-counter.ts): it counts the requests to the service's
// API, user data and partner; once they are spent, a request of a check is not sent, and the check is not
// verified naming the budget, never failed. A sign-in's steps are outside it: a sign-in is never started
// only to be refused.
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiClient } from '../../src/http/api-client.ts';
import { leasingPacer, localTurns } from '../../src/http/pacer.ts';
import { RequestCounter, requestTally } from '../../src/http/request-counter.ts';
import { RequestRefused } from '../../src/http/request-refused.ts';
import type { TransportResponse } from '../../src/http/transport.ts';
import { scratchDir } from './scratch.ts';

test("a spent budget refuses the API's requests, on the run's side, naming the budget; the sign-in's steps still go", async () => {
  const log = join(scratchDir(), 'requests.log');
  const sent: string[] = [];
  const answering = {
    send: async ({ method, url }: { method: string; url: string }): Promise<TransportResponse> => {
      sent.push(`${method} ${new URL(url).pathname}`);
      return { status: 200, headers: {}, text: '{}' };
    },
    dispose: () => {},
  };
  const api = new ApiClient(answering, {
    baseUrl: 'https://api.example.test/developer',
    pacer: leasingPacer(localTurns().source),
    requests: new RequestCounter(log, 3),
  });
  await api.send({ path: '/v2/cycle' });
  await api.send({ method: 'POST', path: '/v2/partner/token', json: {} });
  await api.send({ path: '/v2/user/profile/basic' });
  // A sign-in's steps, wherever its forms post: outside the budget.
  await api.send({ path: 'https://login.example.test/oauth/oauth2/auth', signIn: true });
  await api.send({ method: 'POST', path: 'https://login.example.test/login', form: {}, signIn: true });
  const refusal = await api.send({ path: '/v2/activity/sleep' }).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(RequestRefused);
  expect((refusal as RequestRefused).side).toBe('run');
  expect((refusal as RequestRefused).finding).toEqual({
    outcome: 'not-verified',
    message:
      "the run's request budget is spent: 3 requests to the service's API (CONFORMANCE_REQUEST_BUDGET, the smoke profile's): GET https://api.example.test/developer/v2/activity/sleep was not sent",
  });
  expect(sent).toEqual([
    'GET /developer/v2/cycle',
    'POST /developer/v2/partner/token',
    'GET /developer/v2/user/profile/basic',
    'GET /oauth/oauth2/auth',
    'POST /login',
  ]);
  expect(requestTally(log)).toEqual({ user: 2, partner: 1, other: 2 });
});
