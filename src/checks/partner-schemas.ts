// Partner resources against their schemas, as data: the violations of one requirement across requisitions
// (each in the part of the requisition its pointer lies in, naming a cross-cutting rule's own requirement
// too), and the violations of a service request read alone, each with the requirement its rule states.
import { attributed, requirementAt } from '../contract/rule-requirements.ts';
import { formatViolation, type SchemaViolation, validate } from '../contract/validators.ts';
import type { Exchange } from '../http/exchange.ts';

/** A requisition as read: its id, the answer, and the resource. */
export interface RequisitionRead {
  id: string;
  exchange: Exchange;
  requisition: unknown;
}

/**
 * The part of the requisition a violation lies in, and the requirement its rule states. Where that is a
 * cross-cutting one (SCH-DATE-TIME for an appointment's start_time), the part is still the one its pointer
 * lies in: the requirement of the schema declaring that location.
 */
function attribute(violation: SchemaViolation): { part: string; specific: string } {
  return {
    part: requirementAt('lab-requisition', violation.pointer),
    specific: attributed(violation).requirement,
  };
}

/** Violations of `requirement` across the requisitions, as readable lines with the requisition id. */
export function requisitionViolations(requirement: string, reads: readonly RequisitionRead[]) {
  const problems: string[] = [];
  let exchange: Exchange | undefined;
  for (const { id, requisition, exchange: read } of reads) {
    for (const violation of validate('lab-requisition', requisition).errors) {
      const { part, specific } = attribute(violation);
      if (part !== requirement) continue;
      exchange ??= read;
      problems.push(
        `requisition ${id}: ${formatViolation(violation)}${specific === part ? '' : ` (also ${specific})`}`,
      );
    }
  }
  return { problems, exchange };
}

/** The violations of a service request read alone, each naming the requirement its rule states. */
export const serviceRequestViolations = (id: string, serviceRequest: unknown): string[] =>
  validate('service-request', serviceRequest).errors.map(
    (violation) =>
      `GET service request ${id}: ${formatViolation(violation)} → ${attributed(violation).requirement}`,
  );
