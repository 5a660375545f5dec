// Partner webhooks: every data change is announced to the owning partner, signed with its signing secret
// (the WebhookSender adds the Service-Signed header; not with fault partner-webhook-signature-missing). The seed does not show event types or payloads; the
// sandbox mirrors the user-data webhooks: { type, id, requisition_id, trace_id, occurred_at, ... }.
import { randomUUID } from 'node:crypto';
import type { SandboxContext } from '../context.ts';
import type { PartnerRegistry } from './partners.ts';

export type PartnerEventType =
  | 'requisition.created'
  | 'requisition.status_updated'
  | 'service_request.status_updated'
  | 'service_request.results_created';

export interface PartnerEvent {
  type: PartnerEventType;
  /** Id of the resource the event is about. */
  id: string;
  requisition_id: string;
  trace_id: string;
  occurred_at: string;
  [detail: string]: unknown;
}

export class PartnerEvents {
  constructor(
    private readonly ctx: SandboxContext,
    private readonly partners: PartnerRegistry,
  ) {}

  emit(
    owner: string,
    type: PartnerEventType,
    subject: { id: string; requisition_id: string },
    details = {},
  ): void {
    const partner = this.partners.find(owner);
    if (!partner) return;
    // Without a secret the sender leaves out the Service-Signed header.
    const secret = this.ctx.fault('partner-webhook-signature-missing') ? undefined : partner.signingSecret;
    const event: PartnerEvent = {
      type,
      ...subject,
      ...details,
      trace_id: randomUUID(),
      occurred_at: this.ctx.options.now().toISOString(),
    };
    this.ctx.webhooks.send(owner, secret, event);
  }
}
