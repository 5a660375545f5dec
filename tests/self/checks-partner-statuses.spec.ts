// Status updates of the partner workflow read back (src/checks/partner-statuses.ts): "PATCH on a requisition
// sets the task business status on all service requests of that requisition" (PTN-PATCH-REQUISITION-ALL),
// PATCH on one service request changes it alone (PTN-PATCH-SERVICE-REQUEST-ONLY) and answers it with the
// new status ("An update to task_business_status replaces the stored task business status", PTN-PATCH-REPLACES).
import { expect, test } from '@playwright/test';
import {
  requisitionStatusProblems,
  siblingChangedProblem,
  statusNotSetProblem,
  updatedAnswerProblems,
} from '../../src/checks/partner-statuses.ts';

const SR1 = '9b2e7d44-1a3c-4f6d-8e0b-7c5a9d2e4f31';
const SR2 = 'c7d1e3f5-2b4a-4c6e-8f0a-1b3d5f7a9c2e';

test('a service request read by id carries the status its requisition was set to, or the problem says what it has', () => {
  expect(statusNotSetProblem(SR1, 'RESULTS_READY', 'RESULTS_READY')).toBeUndefined();
  expect(statusNotSetProblem(SR1, 'SAMPLE_COLLECTED', 'RESULTS_READY')).toBe(
    `GET service request ${SR1}: task_business_status "SAMPLE_COLLECTED", expected RESULTS_READY`,
  );
});

test('every service request the requisition lists carries the status, or each that does not is named', () => {
  const set = new Map<string, unknown>([
    [SR1, 'RESULTS_READY'],
    [SR2, 'RESULTS_READY'],
  ]);
  expect(requisitionStatusProblems(set, 'RESULTS_READY')).toEqual([]);
  const oneLeft = new Map<string, unknown>([
    [SR1, 'RESULTS_READY'],
    [SR2, 'SAMPLE_COLLECTED'],
  ]);
  expect(requisitionStatusProblems(oneLeft, 'RESULTS_READY')).toEqual([
    `GET requisition: service request ${SR2} has task_business_status "SAMPLE_COLLECTED", expected RESULTS_READY`,
  ]);
});

test('a sibling keeps its status, absent included; a change is named from before to after', () => {
  expect(siblingChangedProblem(SR2, 'SAMPLE_COLLECTED', 'SAMPLE_COLLECTED')).toBeUndefined();
  expect(siblingChangedProblem(SR2, undefined, undefined)).toBeUndefined();
  expect(siblingChangedProblem(SR2, 'SAMPLE_COLLECTED', 'RESULTS_READY')).toBe(
    `GET service request ${SR2} (a sibling): task_business_status "SAMPLE_COLLECTED" → "RESULTS_READY"`,
  );
  expect(siblingChangedProblem(SR2, undefined, 'RESULTS_READY')).toBe(
    `GET service request ${SR2} (a sibling): task_business_status absent → "RESULTS_READY"`,
  );
  expect(siblingChangedProblem(SR2, 'RESULTS_READY', undefined)).toBe(
    `GET service request ${SR2} (a sibling): task_business_status "RESULTS_READY" → absent`,
  );
});

test('the answer to an update is that service request with the new status; each departure is named', () => {
  expect(
    updatedAnswerProblems({ id: SR1, task_business_status: 'RESULTS_READY' }, SR1, 'RESULTS_READY'),
  ).toEqual([]);
  expect(
    updatedAnswerProblems({ id: SR2, task_business_status: 'SAMPLE_COLLECTED' }, SR1, 'RESULTS_READY'),
  ).toEqual([
    `the answer is service request "${SR2}", not ${SR1}`,
    'the answer carries task_business_status "SAMPLE_COLLECTED", not the update RESULTS_READY',
  ]);
});
