// The partner client's renewal after a 401 (seed §Authentication › Partner API, step 4: "The client then
// requests a new token and retries"), checked for each kind of stale token: partner-auth.spec.ts (invalid)
// and token-expiry.spec.ts (expired, late in the run).
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { getRequisitionOperation } from '../partner-data/partner-catalogue.ts';
import type { PartnerData } from '../partner-data/partner-data.ts';
import { ownedTarget, ownedTargetTags } from '../partner-data/partner-owned-targets.ts';
import type { Verdict } from '../verdict/verdicts.ts';
import { test, verifies } from './test.ts';

export interface StaleToken {
  requirement: RequirementId;
  kind: string;
  stale: (config: SuiteConfig, partnerData: PartnerData, verdict: Verdict) => Promise<string>;
}

/** Declares the check that partner A's client, sent a 401 for a `kind` token, gets a new one and is served. */
export function renewalCheck({ requirement, kind, stale }: StaleToken): void {
  test(
    ...verifies(
      requirement,
      `after a 401 for an ${kind} token the client requests a new token, and the retry is served`,
      { tag: ownedTargetTags(getRequisitionOperation), needs: ['real-auth'] },
    ),
    async ({ config, partnerA, partnerData, verdict }) => {
      const { request, asked } = await ownedTarget(partnerData, getRequisitionOperation);
      partnerA.useToken(await stale(config, partnerData, verdict));
      const exchange = await partnerA.send(request);
      verdict.expectThat(
        partnerA.renewals === 1,
        `the ${kind} token was not refused with 401 (renewals: ${partnerA.renewals})`,
        exchange,
      );
      verdict.expectThat(
        exchange.status === getRequisitionOperation.successStatus,
        `the retry of ${asked} with a newly requested token answered ${exchange.status}`,
        exchange,
      );
      verdict.evidence(`${asked}: the ${kind} token refused with 401, the retry with a new token served`, {
        exchange,
      });
    },
  );
}
