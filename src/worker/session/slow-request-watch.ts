// What a target session's client tells of the requests that are slow (1 s) or lose their connection
// (src/http/second-sending.ts): each is recorded for the report once all its sendings settled, named by the
// test that sent it, and the sending its check went on without judged here, once, on its whole answer
// (unused-sending.ts). A session closes once the last has settled: each ends by its bound.
import type { TestInfo } from '@playwright/test';
import { ownTitle, targetNameOf } from '../../config/run-plan.ts';
import { operationUnder } from '../../contract/match-operation.ts';
import type { ApiClientOptions } from '../../http/api-client.ts';
import { curl } from '../../http/exchange.ts';
import { carriesMadeUpToken } from '../../http/made-up-tokens.ts';
import { redactText } from '../../http/redact.ts';
import { recordSlowRequest, type SlowRequestRecord } from '../../protocol/slow-requests.ts';
import { currentTest } from './run-waits.ts';
import { unusedSendingFailure } from './unused-sending.ts';

/** A test's title as the report gives it (src/runner/report/test-result.ts). */
const reportTitle = (test: TestInfo): string =>
  [...test.titlePath.slice(1, -1), ownTitle(test.title, targetNameOf(test.annotations))].join(' › ');

export interface SlowRequestWatch {
  onSlow: NonNullable<ApiClientOptions['onSlow']>;
  /** Resolves once every slow request told so far has settled. */
  settled(): Promise<void>;
}

/** The watch of the slow requests sent to the target at `baseUrl`. */
export function slowRequestWatch(baseUrl: string): SlowRequestWatch {
  const pending = new Set<Promise<void>>();
  return {
    onSlow: (request) => {
      const test = currentTest();
      let done = () => {};
      pending.add(new Promise<void>((resolve) => (done = resolve)));
      return (slow, answers) => {
        const op = operationUnder(baseUrl, request.method, request.url);
        const record: SlowRequestRecord = {
          ...slow,
          target: baseUrl,
          test: test ? reportTitle(test) : '',
          file: test ? test.file.replace(/^.*\/tests\//, 'tests/') : '',
          operationId: op?.operationId,
          request: `${request.method} ${redactText(request.url)}`,
          curl: curl(request),
        };
        const failure = unusedSendingFailure(record, answers, {
          request,
          op,
          madeUpToken: carriesMadeUpToken(request),
        });
        recordSlowRequest(failure ? { ...record, failure } : record);
        done();
      };
    },
    settled: async () => {
      while (pending.size > 0) {
        const waiting = [...pending];
        await Promise.all(waiting);
        for (const one of waiting) pending.delete(one);
      }
    },
  };
}
