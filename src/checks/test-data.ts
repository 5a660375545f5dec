// The appointments of a generated requisition judged, as data: each books service requests of its own
// requisition (and there is one), and a MOBILE appointment carries a collection_address with building, area
// and emirate. Each problem names the appointment by its JSON pointer.

/** An appointment as received (its fields are checked, never assumed). */
type Appointment = { [field: string]: unknown };

/** No appointment, or one that books no service request or one of another requisition (`own`: its ids). */
export function bookingProblems(appointments: readonly Appointment[], own: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  if (appointments.length === 0) problems.push('the requisition has no appointment');
  appointments.forEach((appointment, index) => {
    const ids = appointment.service_request_ids;
    if (!Array.isArray(ids) || ids.length === 0) {
      problems.push(
        `appointments/${index} books no service request (service_request_ids ${JSON.stringify(ids)})`,
      );
      return;
    }
    for (const id of ids)
      if (typeof id !== 'string' || !own.has(id))
        problems.push(
          `appointments/${index}/service_request_ids lists ${JSON.stringify(id)}, not a service request of the requisition (${[...own].join(', ')})`,
        );
  });
  return problems;
}

const ADDRESS_LINES = ['building', 'area', 'emirate'] as const;

/**
 * Appointments without a collection_address object, or whose building, area or emirate is no string
 * (problems); those where one is an empty string (warnings: the seed types each "string, required", and the
 * suite reads "includes ... (building, area, emirate)" as text in each, which an empty string is not).
 */
export function collectionAddressProblems(appointments: readonly Appointment[]) {
  const problems: string[] = [];
  const warnings: string[] = [];
  appointments.forEach((appointment, index) => {
    const address = appointment.collection_address as Record<string, unknown> | undefined;
    if (typeof address !== 'object' || address === null || Array.isArray(address)) {
      problems.push(`appointments/${index} has no collection_address object (${JSON.stringify(address)})`);
      return;
    }
    for (const field of ADDRESS_LINES) {
      const said = `appointments/${index}/collection_address/${field} is ${JSON.stringify(address[field])}`;
      if (typeof address[field] !== 'string') problems.push(said);
      else if (address[field] === '') warnings.push(said);
    }
  });
  return { problems, warnings };
}
