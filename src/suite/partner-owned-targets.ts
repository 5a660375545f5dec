// What the partner authentication checks send their requests to: something partner A owns, so that an answer
// served where it should be refused (no token, an invalid or expired one) shows as served (200, 204, 201),
// never as the 404 of an id nobody owns, and a valid token refused shows as refused. A read goes to one of
// partner A's requisitions (generated, or configured on production); an update to the requisition the run
// generated for these checks alone, so that one a lenient server lets in changes nothing another check reads.
// The checks that send updates or generate data are @nonprod @write: production and smoke runs leave them
// out, and verify the reads only.
import type { PartnerClient } from '../auth/partner-client.ts';
import { Tags } from '../config/profiles.ts';
import type { Operation } from '../contract/operation-model.ts';
import { buildPath } from '../contract/request-paths.ts';
import type { ApiRequest } from '../http/api-client.ts';
import {
  addressedId,
  addressedResource,
  DEFAULT_APPOINTMENT_TYPE,
  generatedId,
  observedTestDataForAuthentication,
  partnerRequisitionIds,
  type RequisitionData,
  requestFor,
  sharedRequisition,
  uniqueStatus,
  validBodyFor,
  workingRequisition,
} from './partner-data.ts';
import type { TargetSession } from './target-session.ts';
import { note } from './verdicts.ts';

export interface OwnedTarget {
  request: Pick<ApiRequest, 'method' | 'path' | 'json'>;
  /** What the request asks for, as a verdict names it: "GET of partner A's requisition 3f2c…". */
  asked: string;
}

/** Profile tags of a check that sends `op` to what partner A owns: an update, or add-test-data, writes. */
export const ownedTargetTags = (op: Operation): string[] =>
  op.readOnly ? [Tags.partner, Tags.write] : [Tags.partner, Tags.nonProduction, Tags.write];

interface Owned {
  id: string;
  requisition: RequisitionData;
}

/** One of partner A's requisitions, as first read: what the reads ask for. */
async function ownedRequisition(session: TargetSession, partner: PartnerClient): Promise<Owned> {
  const [id] = (await partnerRequisitionIds(session, partner, note, [DEFAULT_APPOINTMENT_TYPE])) as [string];
  return {
    id,
    requisition: (await sharedRequisition(session, partner, id, 'OP-GET-REQUISITION')).requisition,
  };
}

/**
 * The requisition the run generated for these checks (add-test-data once per run, read back); where the
 * target names none (a 204), the working requisition, claimed for the test as the workflow checks' are.
 */
async function requisitionToUpdate(session: TargetSession, partner: PartnerClient): Promise<Owned> {
  if (session.config.environment !== 'production') {
    const id = generatedId(
      await observedTestDataForAuthentication(session, partner),
      'OP-ADD-TEST-DATA',
      note,
    );
    if (id !== undefined) {
      const { requisition } = await sharedRequisition(session, partner, id, 'TD-GENERATES-REQUISITION');
      return { id, requisition };
    }
  }
  return workingRequisition(session, partner);
}

/** Partner A's request of `op` on what it owns, with a valid body: only the token is at issue. */
export async function ownedTarget(
  session: TargetSession,
  partner: PartnerClient,
  op: Operation,
): Promise<OwnedTarget> {
  if (op.pathParams.length === 0)
    return { request: { method: op.method, path: buildPath(op) }, asked: `${op.method} ${op.path}` };
  const owned = op.readOnly
    ? await ownedRequisition(session, partner)
    : await requisitionToUpdate(session, partner);
  const id = addressedId(op, owned);
  return {
    request: requestFor(op, id, validBodyFor(op, uniqueStatus('AUTHENTICATION'))),
    asked: `${op.method} of partner A's ${addressedResource(op).replace('-', ' ')} ${id}`,
  };
}
