// Partner A's data as the partner checks reach it, through the `partnerData` fixture: what the worker's
// session with a target observes once and judges many times (generated test data, first reads, token
// answers), fresh read-backs of what a change did, and the requisitions to work on (generated with
// add-test-data on a non-production target; on production, the ids of CONFORMANCE_PARTNER_REQUISITION_IDS).
// The catalogue's views are in partner-catalogue.ts, the resources' in partner-resources.ts, the
// sandbox-only administration calls in sandbox-admin.ts.
import type { PartnerClient } from '../../auth/partner-client.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { operationUnder } from '../../contract/match-operation.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { buildPath } from '../../contract/request-paths.ts';
import { successRequirement } from '../../contract/requirements.ts';
import type { ApiClient } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import { type Codec, exchangeCodec, jsonCodec } from '../session/run-memo.ts';
import { extendTestTimeout } from '../session/run-waits.ts';
import type { TargetSession } from '../session/target-session.ts';
import { chargeUnansweredTo } from '../session/unanswered.ts';
import { notVerified } from '../verdict/stops.ts';
import { Verdict } from '../verdict/verdicts.ts';
import { announcedRequisition, readsRunWebhookLog } from './announced-requisition.ts';
import {
  APPOINTMENT_TYPES,
  addTestDataOperation,
  DEFAULT_APPOINTMENT_TYPE,
  getRequisitionOperation,
  getServiceRequestOperation,
  partnerRequestFor,
} from './partner-catalogue.ts';
import { isObject, type RequisitionData, type ServiceRequestData, unknownId } from './partner-resources.ts';
import { claimRequisition } from './requisition-claims.ts';
import { sandboxRequisitionIds } from './sandbox-admin.ts';

/** The partner's reads by id, one row per kind of resource: the operation that reads it. */
const PARTNER_READS = { requisition: getRequisitionOperation, 'service request': getServiceRequestOperation };
type PartnerReadKind = keyof typeof PARTNER_READS;
interface PartnerResource {
  requisition: RequisitionData;
  'service request': ServiceRequestData;
}

const sendRead = (partner: PartnerClient, kind: PartnerReadKind, id: string): Promise<Exchange> =>
  partner.send({ path: buildPath(PARTNER_READS[kind], { id }) });

/** The resource a GET of `kind` answered, or a failure of `requirement` naming the request. */
function resourceIn<K extends PartnerReadKind>(kind: K, exchange: Exchange, requirement: string) {
  const verdict = new Verdict(requirement);
  verdict.expectStatus(exchange, PARTNER_READS[kind].successStatus);
  const resource = verdict.json<PartnerResource[K]>(exchange);
  verdict.expectThat(isObject(resource), `the ${kind} is not a JSON object`, exchange);
  return resource;
}

/** POST add-test-data as `partner` (appointmentType omitted when undefined). */
export function requestTestData(partner: PartnerClient, appointmentType?: string): Promise<Exchange> {
  return partner.send({
    method: addTestDataOperation.method,
    path: buildPath(addTestDataOperation, {}, { appointmentType }),
  });
}

const NO_ID_ON_204 =
  'add-test-data answered 204 (the documented answer) and named no requisition (no Location header, and no webhook the run read): the generated requisition cannot be found';

/**
 * The requisition a Location header names: a URL or path (resolved against the request's) of GET
 * /v2/partner/requisition/{id} under the target's base URL (RFC 9110 §10.2.2); undefined for any other.
 */
function requisitionAt(exchange: Exchange, baseUrl: string): string | undefined {
  const { location } = exchange.headers;
  if (!location) return undefined;
  const url = URL.canParse(location, exchange.request.url)
    ? new URL(location, exchange.request.url)
    : undefined;
  if (!url || operationUnder(baseUrl, 'GET', url.href)?.operationId !== getRequisitionOperation.operationId)
    return undefined;
  return decodeURIComponent(url.pathname.split('/').at(-1) ?? '') || undefined;
}

const CONFIGURE_IDS = 'set CONFORMANCE_PARTNER_REQUISITION_IDS to requisitions partner A owns';

const noRequisition = (config: SuiteConfig): never =>
  notVerified(
    `${config.environment === 'production' ? 'production target: no test data is generated' : NO_ID_ON_204}; ${CONFIGURE_IDS}`,
  );

/** How long a writer waits for another worker's test to release a requisition (the run shares them). */
const CLAIM_WAIT_MS = 60_000;
const CLAIM_POLL_MS = 100;

/** A claim on one of `candidates`, waiting while every one is held by a test of another worker. */
async function claimWhenFree(baseUrl: string, candidates: readonly string[]): Promise<string | undefined> {
  for (let waited = 0; ; waited += CLAIM_POLL_MS) {
    const id = claimRequisition(baseUrl, candidates);
    if (id !== undefined || waited >= CLAIM_WAIT_MS) return id;
    extendTestTimeout(CLAIM_POLL_MS);
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

export interface GeneratedRequisition {
  id: string;
  requisition: RequisitionData;
  /** The add-test-data exchange. */
  generated: Exchange;
  /** The GET of the generated requisition. */
  read: Exchange;
}

/** A requisition of partner A, as a check works on it. */
export interface OwnedRequisition {
  id: string;
  requisition: RequisitionData;
}

/** Partner A's data, as the running test reaches it (the `partnerData` fixture). */
export class PartnerData {
  constructor(
    private readonly session: TargetSession,
    /** Partner A's client, with the running test's HTTP client. */
    readonly partner: PartnerClient,
    private readonly api: ApiClient,
  ) {}

  // ---------------------------------------------------------------------------------- observed once

  /**
   * What the partner checks observe once per worker session with a target and judge many times: answers,
   * never verdicts, so that each check judges what it needs under its own requirement (a status fault of the
   * GET fails OP-GET-REQUISITION, not the check that happened to send it first). Every observation is kept
   * under the key built here alone (the partner, what was asked, of what), so the memo can be shared more
   * widely without touching a check. A request without an answer fails the check that sent it, charged to
   * the operation `op` observed (its OP-*), and blocks those that waited for it; the next asker sends it again
   * (src/worker/session/unanswered.ts).
   */
  private observedOnce<T = Exchange>(
    what: readonly string[],
    op: Operation | undefined,
    observe: () => Promise<T>,
    codec: Codec<T> = exchangeCodec as unknown as Codec<T>,
  ): Promise<T> {
    const { session, partner } = this;
    const key = ['partner', partner.credentials.clientId, ...what].join(' ');
    const send = op ? () => observe().catch(chargeUnansweredTo(successRequirement(op))) : observe;
    // Once per run (the memo), and once per worker the coordinator is asked (the session).
    return session.sharedRead(key, () => session.memo.remember(key, send, codec));
  }

  /** add-test-data's answer for `appointmentType` (undefined: the parameter omitted, the default). */
  observedTestData(appointmentType?: string): Promise<Exchange> {
    return this.observedOnce(['add-test-data', appointmentType ?? '(default)'], addTestDataOperation, () =>
      requestTestData(this.partner, appointmentType),
    );
  }

  /** The partner's request of `op` on an id no partner owns, with a valid body (only the id is at issue). */
  observedOnUnknownId(op: Operation): Promise<Exchange> {
    return this.observedOnce(['unknown id', op.operationId], op, () =>
      this.partner.send(partnerRequestFor(op, unknownId())),
    );
  }

  /** A token request of the partner, with `overrides` merged into its body (none: the configured request). */
  observedTokenRequest(overrides: Record<string, unknown> = {}): Promise<Exchange> {
    return this.observedOnce(['token', JSON.stringify(overrides)], undefined, () =>
      this.partner.requestToken(overrides),
    );
  }

  /** GET of a requisition or a service request alone, as this session first sent it. */
  observedRead(kind: PartnerReadKind, id: string): Promise<Exchange> {
    return this.observedOnce([kind, id], PARTNER_READS[kind], () => sendRead(this.partner, kind, id));
  }

  /** The sandbox's seeded requisitions of the partner (sandbox administration, the 'sandbox-admin' capability). */
  seededRequisitionIds(): Promise<string[]> {
    const { session, partner } = this;
    return this.observedOnce(
      ['seeded requisitions'],
      undefined,
      () => sandboxRequisitionIds(this.api, session.config, partner.credentials.clientId),
      jsonCodec<string[]>(),
    );
  }

  // ---------------------------------------------------------------------------------- reads, judged

  /**
   * A requisition or a service request (alone), with the exchange that read it; a failure of `requirement`
   * when the read fails. As this session first read it, shared by the checks that judge what it was; `fresh`:
   * read now, never from the session's observations (a check that reads the effect of a change).
   */
  async partnerRead<K extends PartnerReadKind>(
    kind: K,
    id: string,
    requirement: string,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<{ exchange: Exchange; resource: PartnerResource[K] }> {
    const exchange = await (fresh ? sendRead(this.partner, kind, id) : this.observedRead(kind, id));
    return { exchange, resource: resourceIn(kind, exchange, requirement) };
  }

  // ---------------------------------------------------------------------------------- test data

  /**
   * The requisition id an add-test-data answer gives: 204 (the documented answer) names it in a Location
   * header, or a webhook announces it (src/worker/partner-data/announced-requisition.ts), or none does (undefined, noted);
   * 200 (the reference samples) carries `requisition_id`. Fails `requirement` for any other answer.
   */
  async generatedId(exchange: Exchange, requirement: string): Promise<string | undefined> {
    new Verdict(requirement).expectStatus(exchange, addTestDataOperation.successStatuses);
    const answer = new Verdict('OP-ADD-TEST-DATA');
    if (exchange.status === 204) {
      const located = requisitionAt(exchange, this.session.config.baseUrl);
      const announced = located ? undefined : await this.announced(exchange);
      answer.note(
        located
          ? 'add-test-data answered 204 naming its requisition by Location'
          : announced
            ? 'add-test-data answered 204 naming no requisition; a webhook announced it'
            : NO_ID_ON_204,
      );
      return located ?? announced;
    }
    const body = answer.json<{ requisition_id?: unknown }>(exchange);
    const id = isObject(body) ? body.requisition_id : undefined;
    answer.expectThat(
      typeof id === 'string' && id !== '',
      `a 200 answer carries no requisition_id (body: ${exchange.text.slice(0, 200)})`,
      exchange,
    );
    return id as string;
  }

  /** The requisition a webhook announced after the 204 `generated`, looked for once per run. */
  private async announced(generated: Exchange): Promise<string | undefined> {
    const { config } = this.session;
    if (!readsRunWebhookLog(config)) return undefined;
    const found = await this.observedOnce(
      ['add-test-data announced', generated.timing?.startedAt ?? '', generated.request.url],
      undefined,
      async () =>
        (await announcedRequisition(generated, config, this.api, this.partner.credentials.clientId, (id) =>
          sendRead(this.partner, 'requisition', id),
        )) ?? null,
      jsonCodec<string | null>(),
    );
    return found ?? undefined;
  }

  /**
   * The requisition add-test-data generated for `appointmentType` in this session (non-production), as first
   * read back. `requirement` is failed when generation fails, TD-GENERATES-REQUISITION when the read does.
   */
  async generatedRequisition(
    appointmentType: string,
    requirement = 'TD-GENERATES-REQUISITION',
  ): Promise<GeneratedRequisition> {
    const generated = await this.observedTestData(appointmentType);
    const id = await this.generatedId(generated, requirement);
    if (id === undefined) notVerified(NO_ID_ON_204);
    const { exchange: read, resource: requisition } = await this.partnerRead(
      'requisition',
      id,
      'TD-GENERATES-REQUISITION',
    );
    return { id, requisition, generated, read };
  }

  /**
   * Requisitions of partner A to check: on a non-production target the one generated in this session per
   * appointment type (plus any configured ids); on production the ids of CONFORMANCE_PARTNER_REQUISITION_IDS,
   * or the test is skipped with the reason.
   */
  async requisitionIds(types: readonly string[] = APPOINTMENT_TYPES): Promise<string[]> {
    const { config } = this.session;
    if (!config.capabilities.has('stateful'))
      notVerified(`target ${config.target} keeps no requisitions (needs a target that keeps state)`);
    const generated: string[] = [];
    if (config.environment !== 'production') {
      for (const appointmentType of types) {
        const id = await this.generatedId(await this.observedTestData(appointmentType), 'OP-ADD-TEST-DATA');
        if (id !== undefined) generated.push(id);
      }
    }
    const ids = [...generated, ...(config.partnerRequisitionIds ?? [])];
    if (ids.length === 0) noRequisition(config);
    return ids;
  }

  /**
   * A requisition of partner A for a check that changes it, claimed for the rest of the test (no other test
   * works on it meanwhile): the one this session generated with add-test-data where the target names it
   * (non-production, a 200 answer), else one of the configured ids. The requisition is as the session first
   * read it: its ids hold, its statuses may have changed since (a check that compares states reads it afresh).
   * Writes never need a requisition of their own: each sets a status no other test uses and reads what it
   * compares against. Not verified when no requisition is available.
   */
  async workingRequisition(): Promise<OwnedRequisition> {
    const { config } = this.session;
    const generated =
      config.environment === 'production'
        ? undefined
        : await this.generatedId(await this.observedTestData(DEFAULT_APPOINTMENT_TYPE), 'OP-ADD-TEST-DATA');
    const candidates = [
      ...(generated === undefined ? [] : [generated]),
      ...(config.partnerRequisitionIds ?? []),
    ];
    if (candidates.length === 0) noRequisition(config);
    const id = await claimWhenFree(config.baseUrl, candidates);
    if (id === undefined)
      notVerified(`every requisition (${candidates.length}) is in use by another test; configure more`);
    const requirement = id === generated ? 'TD-GENERATES-REQUISITION' : 'OP-GET-REQUISITION';
    return { id, requisition: (await this.partnerRead('requisition', id, requirement)).resource };
  }

  /**
   * The requisition the run generated for the partner authentication checks alone (add-test-data once per
   * run, the default appointment type, read back), which they send updates to, so that one a lenient server
   * lets in without a valid token changes nothing another check reads (src/worker/partner-data/partner-owned-targets.ts);
   * where the target names none (a 204, production), the working requisition, claimed for the test.
   */
  async requisitionForAuthentication(): Promise<OwnedRequisition> {
    if (this.session.config.environment !== 'production') {
      const generated = await this.observedOnce(
        ['add-test-data', 'for the authentication checks'],
        addTestDataOperation,
        () => requestTestData(this.partner),
      );
      const id = await this.generatedId(generated, 'OP-ADD-TEST-DATA');
      if (id !== undefined)
        return {
          id,
          requisition: (await this.partnerRead('requisition', id, 'TD-GENERATES-REQUISITION')).resource,
        };
    }
    return this.workingRequisition();
  }

  /**
   * A requisition generated for the calling check alone, for a check that observes the generation itself (the
   * webhooks a creation sends); where the target names none (a 204, production), the working requisition.
   */
  async freshRequisition(): Promise<OwnedRequisition> {
    if (this.session.config.environment !== 'production') {
      const id = await this.generatedId(await requestTestData(this.partner), 'OP-ADD-TEST-DATA');
      if (id !== undefined)
        return {
          id,
          requisition: (
            await this.partnerRead('requisition', id, 'TD-GENERATES-REQUISITION', { fresh: true })
          ).resource,
        };
    }
    return this.workingRequisition();
  }
}
