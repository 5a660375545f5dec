// The non-production test-data operation (seed §Partner operations, rule 3): POST
// /v2/partner/development/add-test-data generates a test user and a lab requisition with a booked
// appointment, for appointmentType IN_PERSON (the default), MOBILE (with a collection_address) or
// VIRTUAL; the result is fetched with GET /v2/partner/requisition/{id}; in production the operation
// answers 404.
//
// The seed documents a 204 answer (no body) and shows a 200 body with requisition_id in reference
// samples: both are accepted. A 204 that names the requisition in a Location header (RFC 9110 §10.2.2), or
// that a webhook the run reads announces (src/worker/partner-data/announced-requisition.ts), is read as a 200 is; after one
// that names none the generated requisition cannot be found, so the follow-up checks are not verified, with
// a note. Each call (without the parameter, and per type) is sent once per worker
// session, and its requisition read back once: every check here judges that one observation
// (src/worker/partner-data/partner-data.ts), as do the other partner checks that need a generated requisition.
import {
  APPOINTMENT_TYPES,
  addTestDataOperation,
  appointmentsOf,
  bookingProblems,
  collectionAddressProblems,
  covered,
  DEFAULT_APPOINTMENT_TYPE,
  PARTNER_WRITE_TAGS,
  PartnerClient,
  type RequirementId,
  requestTestData,
  serviceRequestIdsOf,
  Tags,
  test,
  verifies,
} from '../../src/worker/suite/index.ts';

/** The calls of the operation: without the parameter (the default), then each appointment type. */
const calls: { label: string; appointmentType?: string }[] = [
  { label: `without appointmentType (default ${DEFAULT_APPOINTMENT_TYPE})` },
  ...APPOINTMENT_TYPES.map((appointmentType) => ({
    label: `appointmentType=${appointmentType}`,
    appointmentType,
  })),
];

// Requirements the generation tests report besides their own: the operation's answer, and the
// appointment types when a type is given.
const ADD_TEST_DATA_ANSWER = 'OP-ADD-TEST-DATA';
const APPOINTMENT_TYPES_ACCEPTED = 'TD-APPOINTMENT-TYPES';

for (const { label, appointmentType } of calls) {
  // An explicit type refused as a client error breaks TD-APPOINTMENT-TYPES; any other wrong answer, the operation.
  const typed: RequirementId[] = appointmentType === undefined ? [] : [APPOINTMENT_TYPES_ACCEPTED];
  const requirementFor = (status: number): RequirementId =>
    appointmentType !== undefined && status >= 400 && status < 500
      ? APPOINTMENT_TYPES_ACCEPTED
      : ADD_TEST_DATA_ANSWER;
  test(
    ...verifies(
      'TD-GENERATES-REQUISITION',
      `add-test-data ${label} generates a requisition that GET /v2/partner/requisition/{id} returns`,
      { also: [ADD_TEST_DATA_ANSWER, ...typed], tag: PARTNER_WRITE_TAGS },
    ),
    async ({ partnerData, verdict }) => {
      const answer = verdict.of(ADD_TEST_DATA_ANSWER);
      const types = verdict.of(APPOINTMENT_TYPES_ACCEPTED);
      const generated = await partnerData.observedTestData(appointmentType);
      const accepted = requirementFor(generated.status);
      verdict.of(accepted).expectStatus(generated, addTestDataOperation.successStatuses);
      if (generated.status !== 204) {
        answer.expectJsonContentType(generated);
        answer.expectSchema('test-data-response', answer.json(generated), generated);
      }
      const id = await partnerData.generatedId(generated, accepted);
      answer.evidence(`${label}: ${generated.status}`, { exchange: generated });
      if (appointmentType !== undefined)
        types.evidence(`${label} accepted (${generated.status})`, { exchange: generated });
      if (id === undefined) {
        // A 204 that names no requisition: the answer is verified, what it generated cannot be.
        verdict.notVerifiedHere(
          'add-test-data answered 204 and named no requisition (no Location header, no webhook the run read) to read back',
        );
        return;
      }
      const { exchange, resource: requisition } = await partnerData.partnerRead(
        'requisition',
        id,
        verdict.requirement,
      );
      verdict.expectThat(
        requisition.id === id,
        `GET answered requisition ${JSON.stringify(requisition.id)} for id ${id}`,
        exchange,
      );
      verdict.expectSchema('lab-requisition', requisition, exchange, 'the generated requisition');
      const typeFields = appointmentsOf(requisition).map((appointment) => appointment.type);
      types.note(
        `${label}: the generated appointment's type field is ${JSON.stringify(typeFields)} (the field's values are not shown in the seed)`,
      );
      verdict.evidence(`requisition ${id} generated and read back, a LabRequisition`, { exchange });
    },
  );
}

for (const appointmentType of APPOINTMENT_TYPES) {
  test(
    ...verifies(
      'TD-BOOKED-APPOINTMENT',
      `a generated ${appointmentType} requisition has a booked appointment for its own service requests`,
      { tag: PARTNER_WRITE_TAGS },
    ),
    async ({ partnerData, verdict }) => {
      const { requisition, read } = await partnerData.generatedRequisition(appointmentType);
      const own = new Set(serviceRequestIdsOf(requisition));
      const appointments = appointmentsOf(requisition);
      verdict.expectNone(bookingProblems(appointments, own), read);
      covered('appointment type', [appointmentType]);
      verdict.evidence(
        `${appointments.length} appointment(s) booking ${own.size} service request(s) of requisition ${String(requisition.id)}`,
      );
    },
  );
}

test(
  ...verifies(
    'TD-MOBILE-ADDRESS',
    'a generated MOBILE appointment includes a collection_address with building, area and emirate',
    { tag: PARTNER_WRITE_TAGS },
  ),
  async ({ partnerData, verdict }) => {
    const { requisition, read } = await partnerData.generatedRequisition('MOBILE');
    const appointments = appointmentsOf(requisition);
    verdict.expectThat(appointments.length > 0, 'the requisition has no appointment', read);
    const { problems, warnings } = collectionAddressProblems(appointments);
    verdict.expectNone(problems, read);
    for (const warning of warnings) verdict.warn(warning, read);
    verdict.evidence(`${appointments.length} MOBILE appointment(s), each with a collection_address`, {
      exchange: read,
    });
  },
);

test(
  ...verifies('TD-PRODUCTION-404', 'add-test-data answers 404 in a production environment', {
    tag: [Tags.partner, Tags.productionCheck, Tags.nonProduction],
  }),
  async ({ api, config, partnerA, verdict }) => {
    if (config.environment === 'production') {
      const exchange = await requestTestData(partnerA);
      verdict.expectStatus(exchange, 404);
      verdict.evidence('the production target does not generate test data', { exchange });
      return;
    }
    const productionBaseUrl =
      config.productionBaseUrl ??
      verdict.notVerified(
        "the target is a non-production environment, where add-test-data exists: the check needs a production target (CONFORMANCE_ENVIRONMENT=production) or the production deployment's URL (CONFORMANCE_PRODUCTION_BASE_URL)",
      );
    // The same request to the production deployment (on the embedded sandbox, its production twin).
    // Partner A's credentials and token settings (a token the server fails is OP-PARTNER-TOKEN's).
    const production = new PartnerClient(
      api.withOptions({ baseUrl: productionBaseUrl }),
      partnerA.credentials,
      new Map(),
      partnerA.settings,
    );
    const exchange = await requestTestData(production);
    verdict.expectStatus(exchange, 404);
    verdict.evidence('the production deployment does not generate test data', { exchange });
  },
);
