// Status updates of the partner workflow read back, as data: a service request that does not carry the
// status its requisition's update set (read by id, or as the requisition lists it), a sibling whose status an
// update of another service request changed, and an updated service request that is not the one asked for
// or does not carry the new status.

/** A service request read by id after its requisition's update to `status`: undefined when it carries it. */
export const statusNotSetProblem = (serviceRequestId: string, value: unknown, status: string) =>
  value === status
    ? undefined
    : `GET service request ${serviceRequestId}: task_business_status ${JSON.stringify(value)}, expected ${status}`;

/** The service requests of the requisition, as it lists them (`statuses`, by id), not carrying `status`. */
export const requisitionStatusProblems = (statuses: ReadonlyMap<string, unknown>, status: string): string[] =>
  [...statuses].flatMap(([serviceRequestId, value]) =>
    value === status
      ? []
      : [
          `GET requisition: service request ${serviceRequestId} has task_business_status ${JSON.stringify(value)}, expected ${status}`,
        ],
  );

/** A sibling's status read by id after another service request's update, against the one before it. */
export const siblingChangedProblem = (sibling: string, before: unknown, after: unknown) =>
  JSON.stringify(after) === JSON.stringify(before)
    ? undefined
    : `GET service request ${sibling} (a sibling): task_business_status ${JSON.stringify(before) ?? 'absent'} → ${JSON.stringify(after) ?? 'absent'}`;

/** The answer to a service request's update: that service request, with the new status. */
export const updatedAnswerProblems = (
  body: { id?: unknown; task_business_status?: unknown },
  serviceRequestId: string,
  status: string,
): string[] => [
  ...(body.id === serviceRequestId
    ? []
    : [`the answer is service request ${JSON.stringify(body.id)}, not ${serviceRequestId}`]),
  ...(body.task_business_status === status
    ? []
    : [
        `the answer carries task_business_status ${JSON.stringify(body.task_business_status)}, not the update ${status}`,
      ]),
];
