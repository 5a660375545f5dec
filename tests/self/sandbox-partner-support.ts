// Shared helpers of the sandbox-partner*.spec.ts tests: an in-process sandbox on a free port, a small HTTP
// client for the partner API (real HTTP via fetch), and a local webhook receiver.
import { type RunningSandbox, startSandbox } from '../../sandbox/app.ts';
import { loadSandboxCredentials, type PartnerCredential } from '../../sandbox/credentials.ts';
import type { SandboxInput } from '../../sandbox/options.ts';
import { jsonOrUndefined } from './sandbox-client.ts';

export const [partnerA, partnerB] = loadSandboxCredentials().partners;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  body: unknown;
}

export interface CallOptions {
  token?: string;
  /** Sent as JSON (content-type application/json). */
  json?: unknown;
  /** Sent verbatim with content-type application/json. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface RequisitionIds {
  id: string;
  service_request_ids: string[];
}

export interface ServiceRequestActivity {
  status_updates: { task_business_status?: string; reason?: string; via: string }[];
  diagnostic_reports: Record<string, unknown>[];
}

export const paths = {
  token: '/v2/partner/token',
  testData: '/v2/partner/development/add-test-data',
  requisition: (id: string) => `/v2/partner/requisition/${id}`,
  serviceRequest: (id: string) => `/v2/partner/service-request/${id}`,
  requisitionStatus: (id: string) => `/v2/partner/requisition/${id}/status`,
  serviceRequestStatus: (id: string) => `/v2/partner/service-request/${id}/status`,
  results: (id: string) => `/v2/partner/service-request/${id}/results`,
};

export const validTokenRequest = (partner: PartnerCredential, extra: Record<string, unknown> = {}) => ({
  grant_type: 'client_credentials',
  client_id: partner.clientId,
  client_secret: partner.clientSecret,
  scope: 'service-partner/token',
  ...extra,
});

export class PartnerSandbox {
  readonly #tokens = new Map<string, string>();

  constructor(readonly running: RunningSandbox) {}

  get baseUrl(): string {
    return this.running.baseUrl;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined || options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw ?? JSON.stringify(options.json);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: jsonOrUndefined(text) };
  }

  /** A fresh partner token (POST /v2/partner/token). */
  async issueToken(partner: PartnerCredential, extra: Record<string, unknown> = {}): Promise<string> {
    const answer = await this.call('POST', paths.token, { json: validTokenRequest(partner, extra) });
    if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${answer.text}`);
    return (answer.body as { access_token: string }).access_token;
  }

  /** A cached token of `partner`. */
  async token(partner: PartnerCredential): Promise<string> {
    let token = this.#tokens.get(partner.clientId);
    if (token === undefined) {
      token = await this.issueToken(partner);
      this.#tokens.set(partner.clientId, token);
    }
    return token;
  }

  /** Calls as `partner` (with its cached token). */
  async as(
    partner: PartnerCredential,
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Answer> {
    return this.call(method, path, { ...options, token: await this.token(partner) });
  }

  /** The partner's requisitions and their service request ids (sandbox-only admin read). */
  async requisitionsOf(partner: PartnerCredential): Promise<RequisitionIds[]> {
    const answer = await this.call('GET', `/sandbox/partners/${partner.clientId}/requisitions`);
    return (answer.body as { requisitions: RequisitionIds[] }).requisitions;
  }

  async firstRequisition(partner: PartnerCredential): Promise<RequisitionIds> {
    const [first] = await this.requisitionsOf(partner);
    if (!first) throw new Error(`${partner.clientId} has no requisition`);
    return first;
  }

  /** Stored status updates and diagnostic reports of a service request (sandbox-only admin read). */
  async activity(partner: PartnerCredential, serviceRequestId: string): Promise<ServiceRequestActivity> {
    const answer = await this.call(
      'GET',
      `/sandbox/partners/${partner.clientId}/service-requests/${serviceRequestId}/activity`,
    );
    return answer.body as ServiceRequestActivity;
  }

  /** Everything observable about a requisition: its representation and the activity of its service requests. */
  async snapshot(partner: PartnerCredential, requisition: RequisitionIds): Promise<unknown> {
    const read = await this.as(partner, 'GET', paths.requisition(requisition.id));
    const activities = await Promise.all(
      requisition.service_request_ids.map((id) => this.activity(partner, id)),
    );
    return { status: read.status, body: read.body, activities };
  }

  /** Generates test data as `partner` and returns the new requisition id. */
  async addTestData(partner: PartnerCredential, appointmentType?: string): Promise<string> {
    const query = appointmentType === undefined ? '' : `?appointmentType=${appointmentType}`;
    const answer = await this.as(partner, 'POST', `${paths.testData}${query}`);
    if (answer.status !== 200) throw new Error(`add-test-data failed: ${answer.status} ${answer.text}`);
    return (answer.body as { requisition_id: string }).requisition_id;
  }

  /** Registers a webhook URL for `owner` (sandbox admin endpoint). */
  async registerWebhook(owner: string, url: string): Promise<void> {
    const response = await fetch(`${this.running.authUrl}/sandbox/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ owner, url }),
    });
    if (response.status !== 201) throw new Error(`webhook registration failed: ${response.status}`);
  }

  close(): Promise<void> {
    return this.running.close();
  }
}

export async function startPartnerSandbox(options: SandboxInput = {}): Promise<PartnerSandbox> {
  return new PartnerSandbox(await startSandbox({ port: 0, ...options }));
}

/** A clock tests can move forward (token expiry). */
export function movableClock(): { now: () => Date; advance(seconds: number): void } {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
  };
}
