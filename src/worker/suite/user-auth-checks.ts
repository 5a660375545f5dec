// The user-data authentication checks, one test per operation and case of a token (missing, malformed,
// never issued, expired: tests/conformance/authentication.spec.ts and token-expiry.spec.ts): a declared
// operation answers 401; one whose security the seed does not show (x-security: unspecified: GET
// /v2/cycle/{cycleId}/sleep, the activity mapping) is only observed and noted (AUTH-UNDECLARED-SECURITY).
import type { UserTokenPool } from '../../auth/user-token-pool.ts';
import type { Capability } from '../../config/capabilities.ts';
import { Tags } from '../../config/profiles.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { operations } from '../../contract/operations.ts';
import type { ApiRequest } from '../../http/api-client.ts';
import { covered } from '../user-data/depth.ts';
import { describeOperation, requestFor, userDataOperations } from '../user-data/user-catalogue.ts';
import type { Verdict } from '../verdict/verdicts.ts';
import { test, verifies } from './test.ts';

/** The user-data operations, plus the utility operation whose security the seed leaves open. */
export const authTargets: readonly Operation[] = [
  ...userDataOperations,
  ...operations.filter((op) => op.area === 'utility'),
];

interface AuthContext {
  validToken: () => Promise<string>;
  pool: UserTokenPool;
  config: SuiteConfig;
  verdict: Verdict;
}

export interface AuthCase {
  requirement: 'AUTH-MISSING-TOKEN' | 'AUTH-INVALID-TOKEN' | 'AUTH-EXPIRED-TOKEN';
  name: string;
  /** Capabilities the case needs beyond real-auth. */
  needs: Capability[];
  smoke?: boolean;
  authorization: (op: Operation, context: AuthContext) => Promise<Pick<ApiRequest, 'token' | 'headers'>>;
}

/** Declares the check of `authCase` on `op`. */
export function authCaseCheck(op: Operation, authCase: AuthCase): void {
  const declared = op.security.kind === 'user';
  // The smoke profile gets the two cheapest checks on one operation without path parameters.
  const smoke = authCase.smoke === true && op.operationId === 'getBasicProfile';
  const requirement = declared ? authCase.requirement : 'AUTH-UNDECLARED-SECURITY';
  const title = declared
    ? `${describeOperation(op)} ${authCase.name} gets 401`
    : `${describeOperation(op)} ${authCase.name} (security not shown by the seed: observed, never 5xx)`;

  test(
    ...verifies(requirement, title, {
      tag: declared && smoke ? [Tags.smoke] : [],
      needs: ['real-auth', ...authCase.needs],
    }),
    async ({ api, config, dataset, userToken, tokenPool, verdict }) => {
      const validToken = () => userToken();
      const ids = await dataset.idsFor(op);
      const context = { validToken, pool: tokenPool, config, verdict };
      const authorization = await authCase.authorization(op, context);
      const exchange = await api.send({ ...requestFor(op, ids), ...authorization });
      if (declared) {
        verdict.expectStatus(exchange, 401);
        covered('auth negative', [`user data ${authCase.name}`], op.operationId);
        verdict.evidence(`${describeOperation(op)} ${authCase.name}: 401`);
      } else {
        verdict.of('ERR-NO-5XX-ON-CLIENT-INPUT').expectNo5xx(exchange);
        verdict.note(
          `${describeOperation(op)} ${authCase.name}: answered ${exchange.status} (the seed does not show this operation's security)`,
        );
      }
    },
  );
}
