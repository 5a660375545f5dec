// The appointments of a generated requisition (src/checks/test-data.ts): "a lab requisition with a booked
// appointment" whose service_request_ids are its own (TD-BOOKED-APPOINTMENT), and "With appointmentType MOBILE
// the appointment includes a collection_address" of "building (string, required), area (string, required),
// emirate (string, required)" (TD-MOBILE-ADDRESS). Each problem names the appointment by its JSON pointer.
import { expect, test } from '@playwright/test';
import { bookingProblems, collectionAddressProblems } from '../../src/checks/test-data.ts';
import { collectionAddress, labAppointment } from './contract-fixtures.ts';

const SR1 = '9b2e7d44-1a3c-4f6d-8e0b-7c5a9d2e4f31';
const SR2 = 'c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e';
const OTHER = '3f0c1a52-6c1e-4b8e-9a55-2f4f3f1b9c10';
const own = new Set([SR1, SR2]);

test('appointments booking service requests of their own requisition are no problem', () => {
  expect(bookingProblems([{ service_request_ids: [SR1] }, { service_request_ids: [SR1, SR2] }], own)).toEqual(
    [],
  );
});

test('a requisition without an appointment has no booked appointment', () => {
  expect(bookingProblems([], own)).toEqual(['the requisition has no appointment']);
});

test('an appointment booking nothing, or a service request of another requisition, is named by its pointer', () => {
  expect(
    bookingProblems(
      [
        { service_request_ids: [] },
        {},
        { service_request_ids: [SR1, OTHER, 7] },
        { service_request_ids: [SR2] },
      ],
      own,
    ),
  ).toEqual([
    'appointments/0 books no service request (service_request_ids [])',
    'appointments/1 books no service request (service_request_ids undefined)',
    `appointments/2/service_request_ids lists "${OTHER}", not a service request of the requisition (${SR1}, ${SR2})`,
    `appointments/2/service_request_ids lists 7, not a service request of the requisition (${SR1}, ${SR2})`,
  ]);
});

test('a MOBILE appointment with building, area and emirate is no problem', () => {
  const none = { problems: [], warnings: [] };
  expect(collectionAddressProblems([labAppointment])).toEqual(none);
  const { landmark: _, flat_no: __, ...required } = collectionAddress;
  expect(collectionAddressProblems([{ collection_address: required }])).toEqual(none);
});

test('an appointment without a collection_address object, or without a required field of it, is named', () => {
  expect(
    collectionAddressProblems([
      {},
      { collection_address: ['Marina Tower'] },
      { collection_address: { building: 'Marina Tower', area: 3 } },
    ]),
  ).toEqual({
    problems: [
      'appointments/0 has no collection_address object (undefined)',
      'appointments/1 has no collection_address object (["Marina Tower"])',
      'appointments/2/collection_address/area is 3',
      'appointments/2/collection_address/emirate is undefined',
    ],
    warnings: [],
  });
});

// "building (string, required)": an empty string is a string (schemas/collection-address.json has no
// minLength), so no sentence is broken; the suite's reading that each holds text makes it a warning.
test('an empty building is a string, as the seed asks: a warning naming the field, no problem', () => {
  expect(collectionAddressProblems([{ collection_address: { ...collectionAddress, building: '' } }])).toEqual(
    {
      problems: [],
      warnings: ['appointments/0/collection_address/building is ""'],
    },
  );
});
