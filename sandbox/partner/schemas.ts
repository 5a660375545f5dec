// Fastify request schemas of the partner operations, transcribed from the seed's "Partner request bodies".
// Unknown members are allowed (the seed does not forbid them); types are checked without coercion.

const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const partnerTokenRequestSchema = {
  type: 'object',
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    scope: { type: 'string' },
    grant_type: { type: 'string' },
    sandbox_expires_in: { type: 'integer', minimum: 0, maximum: 86_400 },
  },
} as const;

export const serviceRequestStatusRequestSchema = {
  type: 'object',
  properties: {
    task_business_status: { type: 'string' },
    reason: { type: 'string' },
  },
} as const;

export const createObservationRequestSchema = {
  type: 'object',
  properties: {
    value_numeric: { type: 'number' },
    value_text: { type: 'string' },
    unit: { type: 'string' },
    status: { type: 'string' },
    code: { type: 'string' },
    bundle_id: { type: 'string', pattern: uuidPattern },
  },
} as const;

export const diagnosticReportCreateRequestSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    observations: { type: 'array', items: createObservationRequestSchema },
  },
} as const;

export const addTestDataQuerySchema = {
  type: 'object',
  properties: {
    appointmentType: { type: 'string', enum: ['IN_PERSON', 'MOBILE', 'VIRTUAL'], default: 'IN_PERSON' },
  },
} as const;

export const idParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;
