// The add-test-data generator: a test user (extended lab patient) and a lab requisition with a booked
// appointment. The n-th generated requisition of a sandbox instance always has the same ids (seed + counter).
import type { SandboxContext } from '../context.ts';
import { createPrng, deriveSeed } from '../prng.ts';
import { buildRequisition } from './generator.ts';
import type { AppointmentType, LabRequisition } from './types.ts';

export class TestDataFactory {
  #generated = 0;

  constructor(private readonly ctx: SandboxContext) {}

  create(appointmentType: AppointmentType): LabRequisition {
    const rng = createPrng(deriveSeed(this.ctx.options.seed, `test-data:${this.#generated++}`));
    const requisition = buildRequisition(rng, {
      createdAt: this.ctx.options.now(),
      appointmentType,
      extendedPatient: true,
      presetStatuses: false,
      partialAppointment: false,
    });
    // One appointment type mishandled: a VIRTUAL requisition is generated without its booked appointment.
    if (appointmentType === 'VIRTUAL' && this.ctx.fault('partner-test-data-virtual-unbooked'))
      requisition.appointments = [];
    for (const appointment of requisition.appointments) {
      if (this.ctx.fault('partner-test-data-mobile-no-address')) delete appointment.collection_address;
      if (appointment.collection_address && this.ctx.variant('empty-address-lines'))
        Object.assign(appointment.collection_address, { building: '', area: '', emirate: '' });
      if (this.ctx.fault('partner-test-data-foreign-service-request-ids')) {
        appointment.service_request_ids = appointment.service_request_ids.map(() => rng.uuid());
      }
    }
    return requisition;
  }
}
