// Variant nulls-for-absent: every optional field a response leaves out is sent as JSON null instead. One
// table of shapes (the optional fields of each resource, as the seed's tables and schemas/*.json mark them
// "Required: no", and the members holding nested resources); required fields are never touched.

interface Shape {
  /** Optional fields, filled with null when absent; a function when they depend on the object (patients). */
  optional: readonly string[] | ((value: Record<string, unknown>) => readonly string[]);
  /** Members holding a nested resource (an object, or an array of objects) and its shape's name. */
  nested?: Readonly<Record<string, string>>;
}

const extendedPatientOptional = ['gender', 'email', 'phone', 'nationality', 'emirates_id', 'passport_no'];

const shapes = {
  cycle: { optional: ['end', 'score', 'step_count'] },
  sleep: { optional: ['v1_id', 'score'], nested: { score: 'sleepScore' } },
  sleepScore: {
    optional: [
      'respiratory_rate',
      'sleep_performance_percentage',
      'sleep_consistency_percentage',
      'sleep_efficiency_percentage',
    ],
  },
  recovery: { optional: ['score'], nested: { score: 'recoveryScore' } },
  recoveryScore: { optional: ['spo2_percentage', 'skin_temp_celsius'] },
  workout: { optional: ['v1_id', 'score'] },
  cyclePage: { optional: ['next_token'], nested: { records: 'cycle' } },
  sleepPage: { optional: ['next_token'], nested: { records: 'sleep' } },
  recoveryPage: { optional: ['next_token'], nested: { records: 'recovery' } },
  workoutPage: { optional: ['next_token'], nested: { records: 'workout' } },
  serviceRequest: { optional: ['task_business_status', 'task_description'] },
  // PatientCore: a plain Patient has no optional field; an extended lab patient (birth_date) has six.
  patient: { optional: (patient) => ('birth_date' in patient ? extendedPatientOptional : []) },
  appointment: {
    optional: ['type', 'slot_id', 'collection_address'],
    nested: { collection_address: 'collectionAddress' },
  },
  collectionAddress: { optional: ['landmark', 'flat_no'] },
  requisition: {
    optional: [],
    nested: { service_requests: 'serviceRequest', patient: 'patient', appointments: 'appointment' },
  },
} as const satisfies Record<string, Shape>;

export type ShapeName = keyof typeof shapes;

/** The shape of each operation's success body (operations without optional fields are not listed). */
export const responseShapes: Readonly<Record<string, ShapeName>> = {
  getCycleById: 'cycle',
  listCycles: 'cyclePage',
  getSleepForCycle: 'sleep',
  getSleepById: 'sleep',
  listSleeps: 'sleepPage',
  getRecoveryForCycle: 'recovery',
  listRecoveries: 'recoveryPage',
  getWorkoutById: 'workout',
  listWorkouts: 'workoutPage',
  getRequisition: 'requisition',
  getServiceRequest: 'serviceRequest',
  updateServiceRequestStatus: 'serviceRequest',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `value` with every absent optional field of `shape` (and of its nested resources) set to null. */
export function withNulls(shapeName: ShapeName, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withNulls(shapeName, item));
  if (!isObject(value)) return value;
  const shape: Shape = shapes[shapeName];
  const copy: Record<string, unknown> = { ...value };
  const optional = typeof shape.optional === 'function' ? shape.optional(value) : shape.optional;
  for (const field of optional) if (copy[field] === undefined) copy[field] = null;
  for (const [field, nested] of Object.entries(shape.nested ?? {}))
    copy[field] = withNulls(nested as ShapeName, copy[field]);
  return copy;
}
