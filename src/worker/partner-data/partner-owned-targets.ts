// What the partner authentication checks send their requests to: something partner A owns, so that an answer
// served where it should be refused (no token, an invalid or expired one) shows as served (200, 204, 201),
// never as the 404 of an id nobody owns, and a valid token refused shows as refused. A read goes to one of
// partner A's requisitions (generated, or configured on production); an update to the requisition the run
// generated for these checks alone, so that one a lenient server lets in changes nothing another check reads.
// The checks that send updates or generate data are @nonprod @write: production and smoke runs leave them
// out, and verify the reads only.
import { Tags } from '../../config/profiles.ts';
import type { Operation } from '../../contract/operation-model.ts';
import { buildPath } from '../../contract/request-paths.ts';
import type { ApiClient, ApiRequest } from '../../http/api-client.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { RefusalReading } from '../verdict/verdicts.ts';
import {
  addressedId,
  addressedResource,
  DEFAULT_APPOINTMENT_TYPE,
  PARTNER_WRITE_TAGS,
  partnerRequestFor,
} from './partner-catalogue.ts';
import type { OwnedRequisition, PartnerData } from './partner-data.ts';
import { uniqueStatus, validBodyFor } from './partner-resources.ts';

export interface OwnedTarget {
  request: Pick<ApiRequest, 'method' | 'path' | 'json'>;
  /** What the request asks for, as a verdict names it: "GET of partner A's requisition 3f2c…". */
  asked: string;
}

/** Profile tags of a check that sends `op` to what partner A owns: an update, or add-test-data, writes. */
export const ownedTargetTags = (op: Operation): string[] =>
  op.readOnly ? [Tags.partner, Tags.write] : [...PARTNER_WRITE_TAGS];

/** One of partner A's requisitions, as first read: what the reads ask for. */
async function ownedRequisition(partnerData: PartnerData): Promise<OwnedRequisition> {
  const [id] = (await partnerData.requisitionIds([DEFAULT_APPOINTMENT_TYPE])) as [string];
  return {
    id,
    requisition: (await partnerData.partnerRead('requisition', id, 'OP-GET-REQUISITION')).resource,
  };
}

/** Partner A's request of `op` on what it owns, with a valid body: only the token is at issue. */
export async function ownedTarget(partnerData: PartnerData, op: Operation): Promise<OwnedTarget> {
  if (op.pathParams.length === 0)
    return { request: { method: op.method, path: buildPath(op) }, asked: `${op.method} ${op.path}` };
  const owned = op.readOnly
    ? await ownedRequisition(partnerData)
    : await partnerData.requisitionForAuthentication();
  const id = addressedId(op, owned);
  return {
    request: partnerRequestFor(op, id, validBodyFor(op, uniqueStatus('AUTHENTICATION'))),
    asked: `${op.method} of partner A's ${addressedResource(op).replace('-', ' ')} ${id}`,
  };
}

/** "An expired or invalid token gets 401": nothing else passes. */
export const STATED_401: RefusalReading = { expected: [401], tolerated: [] };

/** `op` sent with `token` (none when undefined) on what partner A owns, and what it asked for. */
export async function sendAs(
  api: ApiClient,
  partnerData: PartnerData,
  op: Operation,
  token: string | undefined,
): Promise<{ exchange: Exchange; asked: string }> {
  const { request, asked } = await ownedTarget(partnerData, op);
  return { exchange: await api.send({ ...request, token }), asked };
}
