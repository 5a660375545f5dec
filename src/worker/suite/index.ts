// The face of the suite for a spec (Pact-JS's index.ts, Vitest's public/index.ts): `test` and `verifies`, the
// tags, the operation and requirement queries, the readers of user A's and partner A's data, the verdict's
// types and the checks, each from the room that owns it. Specs import from here alone (import-graph self
// test): what a spec needs that is not here is added here, so the face says what a check may use.

export { lackedScope, lackedScopes, narrowedGrant, widerGrant } from '../../auth/granted-scope.ts';
export { PartnerClient } from '../../auth/partner-client.ts';
export type { UserName, UserTokenPool } from '../../auth/user-token-pool.ts';
export {
  boundCrossings,
  type FilterBound,
  missingFromStart,
  type TimedRecord,
} from '../../checks/filters.ts';
export {
  descendingProblems,
  describeRecordProblem,
  duplicateProblems,
  endBeforeStartProblems,
  openCycleProblems,
  type RecordProblem,
  scoreStateProblems,
  V1_ID_CUTOFF,
  v1IdCutoffProblems,
} from '../../checks/invariants.ts';
export {
  type ForeignAnswer,
  foreignAnswer,
  type OwnedCollection,
  ownerProblems,
} from '../../checks/ownership.ts';
export {
  endCutProblems,
  type KeyedId,
  newerThanFirstProblems,
  pageSizeProblems,
  type WalkIds,
  walkProblems,
} from '../../checks/pagination.ts';
export {
  type RequisitionRead,
  requisitionViolations,
  serviceRequestViolations,
} from '../../checks/partner-schemas.ts';
export {
  requisitionStatusProblems,
  siblingChangedProblem,
  statusNotSetProblem,
  updatedAnswerProblems,
} from '../../checks/partner-statuses.ts';
export {
  type CountedAnswer,
  servedOverLimit,
  windowsEntered,
  windowsTouched,
} from '../../checks/rate-limit-windows.ts';
export { type Dangling, danglingProblem, missingReferences } from '../../checks/references.ts';
export { type SchemaProblem, schemaProblems } from '../../checks/schema-problems.ts';
export {
  cycleSleepProblem,
  mappingProblem,
  sameId,
  singleReadProblem,
} from '../../checks/single-reads.ts';
export { bookingProblems, collectionAddressProblems } from '../../checks/test-data.ts';
export { signatureDepartures, unsignedProblems } from '../../checks/webhook-signatures.ts';
export type { DepthPlan } from '../../config/depth-plan.ts';
export { shareOf } from '../../config/input-classes.ts';
export { Tags } from '../../config/profiles.ts';
export type { SuiteConfig } from '../../config/suite-config.ts';
export {
  invalidArbitrary,
  invalidParameterValues,
  validArbitrary,
  validParameterValues,
} from '../../contract/arbitraries.ts';
export { type DateTimeForm, describeForm, writable, writeInstant } from '../../contract/date-time-forms.ts';
export type { Operation, OperationId, ParameterSchema } from '../../contract/operation-model.ts';
export { operationById, operations } from '../../contract/operations.ts';
export { buildPath } from '../../contract/request-paths.ts';
export {
  appliesTo,
  isRequirementId,
  type RequirementId,
  requirementById,
  requirementOf,
  requirements,
  successRequirement,
} from '../../contract/requirements.ts';
export {
  attributed,
  conditionalRequirementAt,
  requirementAt,
  requirementsOf,
} from '../../contract/rule-requirements.ts';
export { type JsonSchema, loadSchema } from '../../contract/schemas.ts';
export {
  formatNote,
  formatViolation,
  preview,
  type SchemaViolation,
  validate,
} from '../../contract/validators.ts';
export type { ApiClient, ApiRequest } from '../../http/api-client.ts';
export {
  bodyField,
  bodyOf,
  describeExchange,
  type Exchange,
  exchangeLine,
  jsonOf,
  succeeded,
} from '../../http/exchange.ts';
export { madeUpToken } from '../../http/made-up-tokens.ts';
export { type AnnouncedRateLimit, announcedRateLimit } from '../../http/rate-limit-headers.ts';
export { registerSecret } from '../../http/redact.ts';
export { type Delivery, deliveryHeader, deliveryText } from '../../http/webhook-receiver.ts';
export {
  describeScheme,
  type SignatureScheme,
  type SignedRequest,
  signatureProblem,
} from '../../http/webhook-signature.ts';
export { messageOf } from '../../text/error-message.ts';
export { iso } from '../../text/iso-time.ts';
export {
  APPOINTMENT_TYPES,
  addressedId,
  addressedResource,
  addTestDataOperation,
  DEFAULT_APPOINTMENT_TYPE,
  getRequisitionOperation,
  getServiceRequestOperation,
  idAddressedOperations,
  PARTNER_WRITE_TAGS,
  partnerOperations,
  partnerRequestFor,
  statusUpdateOperations,
  updateOperations,
} from '../partner-data/partner-catalogue.ts';
export { type PartnerData, requestTestData } from '../partner-data/partner-data.ts';
export { ownedTarget, ownedTargetTags, STATED_401, sendAs } from '../partner-data/partner-owned-targets.ts';
export {
  appointmentsOf,
  firstServiceRequestId,
  type RequisitionData,
  realisticReport,
  type ServiceRequestData,
  serviceRequestIdsOf,
  serviceRequestsOf,
  statusChanges,
  statusesOf,
  uniqueStatus,
  validBodyFor,
} from '../partner-data/partner-resources.ts';
export { aboutUser, userIdOf, type WebhookInbox } from '../partner-data/webhook-inbox.ts';
export { type CollectionWalk, type Page, pageOf, readPage } from '../user-data/collections.ts';
export type { Dataset, WindowWalks } from '../user-data/dataset.ts';
export { covered } from '../user-data/depth.ts';
export {
  type BoundParam,
  type Departures,
  departures,
  duringDepartures,
  EDGE_ANCHOR,
  type EdgeProbe,
  edgeProbes,
} from '../user-data/filter-edges.ts';
export { triedOn } from '../user-data/grant-guard.ts';
export {
  type CollectionOutcome,
  type LoadedCollection,
  onPages,
  servedAt,
} from '../user-data/loaded-collection.ts';
export {
  type DataRecord,
  type Extent,
  type ExtentOf,
  extentOrFail,
  holds,
  identities,
  identityOf,
  idSet,
  ownExtent,
  recordDifference,
  sequenceDifference,
} from '../user-data/records.ts';
export {
  describeOperation,
  type KnownIds,
  knownValues,
  needsIds,
  operationsOf,
  pathParamsFor,
  requestFor,
  servedStatuses,
  singleReadOf,
  spread,
  userCollections,
  userDataOperations,
} from '../user-data/user-catalogue.ts';
export { COMPLETE_LIMIT, COMPLETE_WALK } from '../user-data/user-data-cache.ts';
export { attempt } from '../verdict/attempt.ts';
export { assertExplored, replayedFromStore } from '../verdict/explored-property.ts';
// What a check says: the verdict, a step's outcome as data, fast-check properties.
export type { RefusalReading, Verdict } from '../verdict/verdicts.ts';
export { describeEachCollection } from './each-collection.ts';
export { expiredPartnerToken, expiredUserToken } from './expired-tokens.ts';
export { ALL_READ_SCOPES } from './fixtures.ts';
export { renewalCheck } from './partner-auth-checks.ts';
export { signInOutcome } from './sign-ins.ts';
export { test, verifies } from './test.ts';
// Checks declared the same way for many targets (tests of their own).
export { type AuthCase, authCaseCheck, authTargets } from './user-auth-checks.ts';
