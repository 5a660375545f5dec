// Partner resources against their schemas (src/checks/partner-schemas.ts): a requisition's violations go to
// the requirement of the part they lie in (SCH-LAB-REQUISITION, SCH-SERVICE-REQUEST, SCH-PATIENT-CORE,
// SCH-APPOINTMENT), a cross-cutting rule's own named beside it; a service request read alone names its rule's.
import { expect, test } from '@playwright/test';
import {
  type RequisitionRead,
  requisitionViolations,
  serviceRequestViolations,
} from '../../src/checks/partner-schemas.ts';
import { createExchange } from '../../src/http/exchange.ts';
import { labRequisition, serviceRequest, without, withValue } from './contract-fixtures.ts';

const read = (id: string, requisition: unknown): RequisitionRead => ({
  id,
  requisition,
  exchange: createExchange(
    { method: 'GET', url: `http://target.test/v2/partner/requisition/${id}`, headers: {} },
    200,
    {},
    JSON.stringify(requisition),
  ),
});

/** The requirements of a requisition's parts: itself, its service requests, its patient, its appointments. */
const PARTS = ['SCH-LAB-REQUISITION', 'SCH-SERVICE-REQUEST', 'SCH-PATIENT-CORE', 'SCH-APPOINTMENT'];

/** A conforming requisition and one breaking a rule of each part, each read under its own id. */
const reads = [
  read('conforming', labRequisition),
  read('no-created-at', without(labRequisition, '/created_at')),
  read('bad-service-request-id', withValue(labRequisition, '/service_requests/0/id', 'x')),
  read('no-patient-id', without(labRequisition, '/patient/id')),
  read('bad-start-time', withValue(labRequisition, '/appointments/0/start_time', 'yesterday')),
];

test('a conforming requisition breaks no requirement, and no exchange is picked to show', () => {
  for (const requirement of PARTS)
    expect(requisitionViolations(requirement, [reads[0] as RequisitionRead])).toEqual({
      problems: [],
      exchange: undefined,
    });
});

test('each violation counts for the part of the requisition it lies in, shown with the first read breaking it', () => {
  const of = (requirement: string) => {
    const { problems, exchange } = requisitionViolations(requirement, reads);
    return { problems, url: exchange?.request.url };
  };
  expect(of('SCH-LAB-REQUISITION')).toEqual({
    problems: [
      "requisition no-created-at: lab-requisition.json /created_at: must have required property 'created_at' (required), got nothing [lab-requisition.json#/required]",
    ],
    url: 'http://target.test/v2/partner/requisition/no-created-at',
  });
  expect(of('SCH-SERVICE-REQUEST').problems).toEqual([
    'requisition bad-service-request-id: lab-requisition.json /service_requests/0/id: must match format "uuid" (format), got "x" [common.json#/$defs/uuid/format]',
  ]);
  expect(of('SCH-PATIENT-CORE').problems).toEqual([
    "requisition no-patient-id: lab-requisition.json /patient/id: must have required property 'id' (required), got nothing [patient.json#/required]",
  ]);
});

test("a cross-cutting rule's violation counts for its part and names its own requirement too", () => {
  expect(requisitionViolations('SCH-APPOINTMENT', reads).problems).toEqual([
    'requisition bad-start-time: lab-requisition.json /appointments/0/start_time: must match format "date-time" (format), got "yesterday" [common.json#/$defs/dateTime/format] (also SCH-DATE-TIME)',
  ]);
  expect(requisitionViolations('SCH-DATE-TIME', reads).problems).toEqual([]);
});

test('a service request read alone: none when it conforms, else each violation with the requirement it breaks', () => {
  expect(serviceRequestViolations('sr-1', serviceRequest)).toEqual([]);
  expect(serviceRequestViolations('sr-1', without(serviceRequest, '/intent'))).toEqual([
    "GET service request sr-1: service-request.json /intent: must have required property 'intent' (required), got nothing [service-request.json#/required] → SCH-SERVICE-REQUEST",
  ]);
});
