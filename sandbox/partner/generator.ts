// Builds lab requisitions (service requests, patient, appointment) from a deterministic generator. Used for
// the seeded data of every partner and by the add-test-data operation.
import type { Prng } from '../prng.ts';
import type {
  Appointment,
  AppointmentType,
  CollectionAddress,
  ExtendedLabPatient,
  LabRequisition,
  PatientCore,
  ServiceRequest,
} from './types.ts';

/** Laboratory tests ordered by the sandbox: LOINC code and display text. */
const labTests: readonly (readonly [code: string, description: string])[] = [
  ['2345-7', 'Glucose [Mass/volume] in Serum or Plasma'],
  ['718-7', 'Hemoglobin [Mass/volume] in Blood'],
  ['4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood'],
  ['2093-3', 'Cholesterol [Mass/volume] in Serum or Plasma'],
  ['2571-8', 'Triglyceride [Mass/volume] in Serum or Plasma'],
  ['3016-3', 'Thyrotropin [Units/volume] in Serum or Plasma'],
  ['2160-0', 'Creatinine [Mass/volume] in Serum or Plasma'],
  ['1742-6', 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma'],
  ['1989-3', '25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma'],
  ['2132-9', 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma'],
  ['2276-4', 'Ferritin [Mass/volume] in Serum or Plasma'],
];
const firstNames = [
  'Aisha',
  'Omar',
  'Fatima',
  'Yousef',
  'Maryam',
  'Khalid',
  'Sara',
  'Rashid',
  'Layla',
  'Hamdan',
];
const lastNames = ['Al Mansoori', 'Al Nuaimi', 'Haddad', 'Khan', 'Rahman', 'Al Suwaidi', 'Fernandes', 'Nair'];
const nationalities = ['AE', 'IN', 'PK', 'EG', 'PH', 'GB', 'JO'];
const emirates = ['Dubai', 'Abu Dhabi', 'Sharjah', 'Ajman', 'Umm Al Quwain', 'Ras Al Khaimah', 'Fujairah'];
const areas = ['Jumeirah', 'Al Barsha', 'Downtown', 'Al Reem Island', 'Al Majaz', 'Khalifa City', 'Al Nahda'];
const buildings = ['Marina Heights', 'Al Noor Tower', 'Palm Residence', 'Crescent Building', 'Villa 12'];
const landmarks = ['near City Centre', 'opposite the park', 'behind the mosque', 'next to the metro station'];
const preparedStatuses = ['PENDING_COLLECTION', 'SAMPLE_SCHEDULED'];

export interface RequisitionPlan {
  createdAt: Date;
  appointmentType: AppointmentType;
  extendedPatient: boolean;
  /** Whether some service requests already carry a task business status. */
  presetStatuses: boolean;
  /** Whether the appointment may cover only part of the requisition's service requests. */
  partialAppointment: boolean;
}

export function buildRequisition(rng: Prng, plan: RequisitionPlan): LabRequisition {
  const createdAt = plan.createdAt.toISOString();
  const serviceRequests = buildServiceRequests(rng, rng.int(2, 4), plan.presetStatuses);
  return {
    id: rng.uuid(),
    created_at: createdAt,
    updated_at: createdAt,
    service_requests: serviceRequests,
    patient: plan.extendedPatient ? buildExtendedPatient(rng) : { id: rng.uuid() },
    appointments: [buildAppointment(rng, plan, serviceRequests)],
  };
}

function buildServiceRequests(rng: Prng, count: number, presetStatuses: boolean): ServiceRequest[] {
  const tests = [...labTests];
  return Array.from({ length: count }, () => {
    const [code, description] = tests.splice(rng.int(0, tests.length - 1), 1)[0] ?? ['2345-7', 'Glucose'];
    const serviceRequest: ServiceRequest = { id: rng.uuid(), status: 'active', intent: 'order', code };
    serviceRequest.task_description = description;
    if (presetStatuses && rng.bool()) serviceRequest.task_business_status = rng.pick(preparedStatuses);
    return serviceRequest;
  });
}

function buildExtendedPatient(rng: Prng): PatientCore {
  const firstName = rng.pick(firstNames);
  const lastName = rng.pick(lastNames);
  const year = rng.int(1955, 2004);
  const patient: ExtendedLabPatient = {
    id: rng.uuid(),
    first_name: firstName,
    last_name: lastName,
    birth_date: `${year}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`,
    gender: rng.pick(['male', 'female']),
    email: `${firstName}.${lastName.replaceAll(' ', '')}@example.com`.toLowerCase(),
    phone: `+9715${rng.int(0, 9)}${rng.int(1000000, 9999999)}`,
    nationality: rng.pick(nationalities),
  };
  if (rng.bool()) patient.emirates_id = `784-${year}-${rng.int(1000000, 9999999)}-${rng.int(0, 9)}`;
  else patient.passport_no = `P${rng.int(10000000, 99999999)}`;
  return patient;
}

function buildAppointment(rng: Prng, plan: RequisitionPlan, serviceRequests: ServiceRequest[]): Appointment {
  const start = new Date(plan.createdAt.getTime() + rng.int(1, 7) * 86_400_000);
  start.setUTCHours(rng.int(4, 10), rng.pick([0, 15, 30, 45]), 0, 0);
  const covered = plan.partialAppointment
    ? serviceRequests.slice(0, rng.int(1, serviceRequests.length))
    : serviceRequests;
  const appointment: Appointment = {
    start_time: start.toISOString(),
    service_request_ids: covered.map((serviceRequest) => serviceRequest.id),
    type: plan.appointmentType,
  };
  if (plan.appointmentType !== 'VIRTUAL') appointment.slot_id = `slot-${rng.int(100000, 999999)}`;
  if (plan.appointmentType === 'MOBILE') appointment.collection_address = buildAddress(rng);
  return appointment;
}

function buildAddress(rng: Prng): CollectionAddress {
  const address: CollectionAddress = {
    building: rng.pick(buildings),
    area: rng.pick(areas),
    emirate: rng.pick(emirates),
  };
  if (rng.bool()) address.landmark = rng.pick(landmarks);
  if (rng.bool()) address.flat_no = String(rng.int(101, 2405));
  return address;
}

const pad = (value: number): string => String(value).padStart(2, '0');
