// Expired tokens, late in the run (this file is among the last Playwright hands out): every user-data
// operation (AUTH-EXPIRED-TOKEN) and every partner operation (PAUTH-EXPIRED-TOKEN) refuses one with 401, and
// the partner client renews after that 401. The tokens are the target's own (src/worker/suite/expired-tokens.ts):
// one given or stored; else the run's own first token once past its stated expiry, which by now has lived
// as long as the run has, so a short lifetime (20 s, a minute) is verified within one run with little or
// no wait.
import {
  type AuthCase,
  authCaseCheck,
  authTargets,
  expiredPartnerToken,
  expiredUserToken,
  ownedTargetTags,
  partnerOperations,
  renewalCheck,
  STATED_401,
  sendAs,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

// Sent as it is (its own header): the run's token would otherwise go out as the successor it keeps live.
const expiredCase: AuthCase = {
  requirement: 'AUTH-EXPIRED-TOKEN',
  name: 'with an expired token',
  needs: ['user-login'],
  authorization: async (_op, { config, pool, verdict }) => ({
    headers: { authorization: `Bearer ${await expiredUserToken(config, pool, verdict)}` },
  }),
};

for (const op of authTargets) authCaseCheck(op, expiredCase);

for (const op of partnerOperations) {
  test(
    ...verifies('PAUTH-EXPIRED-TOKEN', `${op.method} ${op.path} with an expired token gets 401`, {
      tag: ownedTargetTags(op),
      needs: ['partner', 'real-auth'],
    }),
    async ({ api, config, partnerData, verdict }) => {
      const expired = await expiredPartnerToken(config, partnerData, verdict);
      const { exchange, asked } = await sendAs(api, partnerData, op, expired);
      verdict.expectRefusal(exchange, STATED_401, asked);
    },
  );
}

renewalCheck({ requirement: 'PAUTH-EXPIRED-TOKEN', kind: 'expired', stale: expiredPartnerToken });
