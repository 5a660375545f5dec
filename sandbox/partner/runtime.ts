// Everything the partner routes share for one sandbox instance, built once by registerPartnerRoutes.
import type { SandboxContext } from '../context.ts';
import { createPrng, deriveSeed, type Prng } from '../prng.ts';
import { PartnerEvents } from './events.ts';
import { buildRequisition } from './generator.ts';
import { PartnerRegistry } from './partners.ts';
import { PartnerStore } from './store.ts';
import { TestDataFactory } from './test-data.ts';
import { PartnerTokens } from './tokens.ts';
import { appointmentTypes, type Partner } from './types.ts';

export interface PartnerRuntime {
  ctx: SandboxContext;
  partners: PartnerRegistry;
  store: PartnerStore;
  tokens: PartnerTokens;
  events: PartnerEvents;
  testData: TestDataFactory;
  /** Ids of stored diagnostic reports. */
  reportIds: Prng;
}

/**
 * Seeded requisitions per partner (each with 2–4 service requests and one appointment), three of each
 * appointment type in the order IN_PERSON, MOBILE, VIRTUAL, IN_PERSON, … They do not depend on the --seed
 * option: every sandbox instance has the same ids, and partner A's are listed in sandbox.env
 * (CONFORMANCE_PARTNER_REQUISITION_IDS, in this order) for the suite's production-style runs.
 */
export const seededRequisitionsPerPartner = 9;
const seedEpoch = Date.parse('2025-06-02T06:00:00Z');
/** The generator seed of the seeded requisitions (fixed, see above). */
const PARTNER_DATA_SEED = 1;

export function createPartnerRuntime(ctx: SandboxContext, partnerList: readonly Partner[]): PartnerRuntime {
  const partners = new PartnerRegistry(partnerList);
  const store = new PartnerStore();
  for (const partner of partners.partners) seedPartner(store, partner);
  return {
    ctx,
    partners,
    store,
    tokens: new PartnerTokens(ctx.options.now),
    events: new PartnerEvents(ctx, partners),
    testData: new TestDataFactory(ctx),
    reportIds: createPrng(deriveSeed(ctx.options.seed, 'diagnostic-reports')),
  };
}

/** Deterministic data of one partner: alternating plain and extended patients, every appointment type. */
function seedPartner(store: PartnerStore, partner: Partner): void {
  const rng = createPrng(deriveSeed(PARTNER_DATA_SEED, `partner:${partner.clientId}`));
  for (let index = 0; index < seededRequisitionsPerPartner; index++) {
    const requisition = buildRequisition(rng, {
      createdAt: new Date(seedEpoch + index * 86_400_000 + rng.int(0, 36_000) * 1000),
      appointmentType: appointmentTypes[index % appointmentTypes.length] ?? 'IN_PERSON',
      extendedPatient: index % 2 === 0,
      presetStatuses: true,
      partialAppointment: index === seededRequisitionsPerPartner - 1,
    });
    store.addRequisition(partner.clientId, requisition);
  }
}
