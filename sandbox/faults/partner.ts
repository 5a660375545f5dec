// Injectable faults of the partner API (sandbox/partner). Each breaks exactly one requirement of
// specs/requirements.yaml; the sandbox code checks them with ctx.fault(name), and a fault that only changes
// a response is a row of sandbox/fault-responses.ts.
import { partnerStatusFaults } from './status.ts';
import { type FaultDefinition, faultsOf } from './types.ts';

const partner = faultsOf('partner');

export const partnerFaults = {
  // Token endpoint and partner bearer authentication
  'partner-token-429': partner(
    'OP-PARTNER-TOKEN',
    'POST /v2/partner/token answers every request, from the first, 429 with Retry-After: 1: a status the contract lists for user data operations only.',
  ),
  'partner-token-503-in-run': partner(
    'OP-PARTNER-TOKEN',
    "POST /v2/partner/token issues each client's first token (the preflight's, on a target the run did not start), then answers every later request of that client 503.",
  ),
  'partner-token-wrong-secret-accepted': partner(
    'PAUTH-TOKEN-INVALID-CLIENT',
    'POST /v2/partner/token issues a token to a known client whose client_secret is wrong.',
  ),
  'partner-token-unknown-client-accepted': partner(
    'PAUTH-TOKEN-INVALID-CLIENT',
    'POST /v2/partner/token issues a token (acting as partner A) for a client_id it does not know.',
  ),
  'partner-token-type-not-bearer': partner(
    'PAUTH-TOKEN-TYPE',
    'The token response carries token_type "mac".',
  ),
  'partner-token-expires-in-zero': partner(
    'PAUTH-EXPIRES-IN',
    'The token response carries expires_in 0 although the token lives for an hour.',
  ),
  'partner-token-expires-in-overflow': partner(
    'SCH-PARTNER-TOKEN-RESPONSE',
    'The token response carries expires_in 2147483648: a positive integer, but beyond int32.',
  ),
  'partner-expired-token-accepted': partner(
    'PAUTH-EXPIRED-TOKEN',
    'An expired partner token still authorises partner operations.',
  ),
  'partner-missing-token-accepted': partner(
    'PAUTH-INVALID-TOKEN',
    'A partner request without an Authorization header is served (as partner A).',
  ),
  'partner-garbage-token-accepted': partner(
    'PAUTH-INVALID-TOKEN',
    'Any non-empty bearer token the sandbox never issued is accepted (as partner A).',
  ),
  'partner-bearer-rejected-on-test-data': partner(
    'PAUTH-BEARER-ACCEPTED',
    'A valid partner bearer token gets 401 on POST /v2/partner/development/add-test-data (other operations accept it).',
  ),
  // Rule 1: ownership, one fault per id-addressed operation
  'partner-get-requisition-no-ownership': partner(
    'PTN-OWNER-GET-REQUISITION',
    "GET /v2/partner/requisition/{id} serves another partner's requisition.",
  ),
  'partner-get-service-request-no-ownership': partner(
    'PTN-OWNER-GET-SERVICE-REQUEST',
    "GET /v2/partner/service-request/{id} serves another partner's service request.",
  ),
  'partner-update-requisition-no-ownership': partner(
    'PTN-OWNER-PATCH-REQUISITION',
    "PATCH /v2/partner/requisition/{id}/status updates another partner's requisition (204).",
  ),
  'partner-update-service-request-no-ownership': partner(
    'PTN-OWNER-PATCH-SERVICE-REQUEST',
    "PATCH /v2/partner/service-request/{id}/status updates another partner's service request (200).",
  ),
  'partner-create-results-no-ownership': partner(
    'PTN-OWNER-POST-RESULTS',
    "POST /v2/partner/service-request/{id}/results stores results on another partner's service request (201).",
  ),
  'partner-non-owner-update-applied': partner(
    'PTN-OWNER-NO-SIDE-EFFECT',
    "A non-owner's status update is answered 404 but applied to the owner's data.",
  ),
  'partner-unknown-id-400': partner(
    'PTN-NOT-FOUND',
    'Unknown ids on id-addressed partner operations get 400.',
  ),
  // Rule 2 and the status update semantics
  'partner-requisition-status-first-only': partner(
    'PTN-PATCH-REQUISITION-ALL',
    'PATCH on a requisition sets the task business status on its first service request only.',
  ),
  'partner-service-request-status-updates-siblings': partner(
    'PTN-PATCH-SERVICE-REQUEST-ONLY',
    'PATCH on a service request also sets the status of its sibling service requests.',
  ),
  'partner-status-reason-rejected': partner(
    'PTN-PATCH-REPLACES',
    'A status update carrying a reason is rejected with 400 (and not applied).',
  ),
  'partner-service-request-status-204': partner(
    'OP-PATCH-SERVICE-REQUEST-STATUS',
    'PATCH /v2/partner/service-request/{id}/status answers 204 without the updated ServiceRequest.',
  ),
  'partner-results-200-with-body': partner(
    'OP-POST-RESULTS',
    'POST /v2/partner/service-request/{id}/results answers 200 with a JSON body instead of 201 without one.',
  ),
  'partner-results-429-forever': partner(
    'OP-POST-RESULTS',
    'POST /v2/partner/service-request/{id}/results always answers 429 with Retry-After: 1, a status the contract lists for user data operations only.',
  ),
  // Request bodies
  'partner-invalid-body-server-error': partner(
    'ERR-NO-5XX-ON-CLIENT-INPUT',
    'An invalid request body of a partner update gets 500 instead of 400 (nothing is applied).',
  ),
  // Response schemas
  'partner-requisition-missing-field': partner(
    'SCH-LAB-REQUISITION',
    'LabRequisition responses lack the required updated_at.',
  ),
  'partner-service-request-missing-code': partner(
    'SCH-SERVICE-REQUEST',
    'ServiceRequest responses (alone and inside a requisition) lack the required code.',
  ),
  'partner-patient-id-not-uuid': partner('SCH-PATIENT-CORE', 'The requisition patient id is not a uuid.'),
  'partner-appointment-start-time-invalid': partner(
    'SCH-APPOINTMENT',
    'Appointments carry a start_time that is not a date-time.',
  ),
  // Test data
  'partner-test-data-in-production': partner(
    'TD-PRODUCTION-404',
    'POST /v2/partner/development/add-test-data works (200) in the production environment.',
  ),
  'partner-test-data-not-stored': partner(
    'TD-GENERATES-REQUISITION',
    'The test-data operation answers a requisition_id that GET /v2/partner/requisition/{id} does not know.',
  ),
  'partner-test-data-virtual-rejected': partner(
    'TD-APPOINTMENT-TYPES',
    'The test-data operation rejects appointmentType VIRTUAL with 400.',
  ),
  'partner-test-data-mobile-no-address': partner(
    'TD-MOBILE-ADDRESS',
    'A MOBILE test appointment has no collection_address.',
  ),
  'partner-test-data-virtual-unbooked': partner(
    'TD-BOOKED-APPOINTMENT',
    'A requisition generated with appointmentType VIRTUAL has no appointment (IN_PERSON and MOBILE still have theirs).',
  ),
  'partner-test-data-foreign-service-request-ids': partner(
    'TD-BOOKED-APPOINTMENT',
    'The test appointment lists service_request_ids that are not ids of its requisition.',
  ),
  // Webhooks
  'partner-webhook-signature-missing': partner(
    'WH-SIGNED',
    'Partner webhooks are sent without the Service-Signed header.',
  ),
  // Success statuses (faults/status.ts)
  ...partnerStatusFaults,
} satisfies Record<string, FaultDefinition>;
