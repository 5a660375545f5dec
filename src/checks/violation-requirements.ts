// Which requirement of specs/requirements.yaml a schema violation breaks. Schema validation finds every
// problem at once; this table attributes each one to the most specific requirement, so a report says
// "INV-STRAIN-RANGE failed" rather than "the cycle schema failed".
import type { SchemaViolation } from '../contract/validators.ts';

/** Item schema of each envelope: violations under /records/N belong to the item. */
const ENVELOPE_ITEMS: Record<string, string> = {
  'paginated-cycle-response': 'cycle',
  'paginated-sleep-response': 'sleep',
  'recovery-collection': 'recovery',
  'workout-collection': 'workout',
};

/** The requirement for everything about a resource that no more specific rule claims. */
const RESOURCE_REQUIREMENTS: Record<string, { whole: string; score?: string }> = {
  cycle: { whole: 'SCH-CYCLE', score: 'SCH-CYCLE-SCORE' },
  sleep: { whole: 'SCH-SLEEP', score: 'SCH-SLEEP-SCORE' },
  recovery: { whole: 'SCH-RECOVERY', score: 'SCH-RECOVERY-SCORE' },
  workout: { whole: 'SCH-WORKOUT' },
  'user-body-measurement': { whole: 'SCH-BODY-MEASUREMENT' },
  'user-basic-profile': { whole: 'SCH-BASIC-PROFILE' },
  'activity-id-mapping-response': { whole: 'SCH-ACTIVITY-MAPPING' },
  'service-request': { whole: 'SCH-SERVICE-REQUEST' },
  'partner-token-response': { whole: 'SCH-PARTNER-TOKEN-RESPONSE' },
  'lab-requisition': { whole: 'SCH-LAB-REQUISITION' },
};

const SCORE_IFF: Record<string, string> = {
  cycle: 'INV-CYCLE-SCORE-IFF-SCORED',
  sleep: 'INV-SLEEP-SCORE-IFF-SCORED',
  recovery: 'INV-RECOVERY-SCORE-IFF-SCORED',
};
/** The "score iff SCORED" invariants of the scored resources. */
export const SCORE_IFF_REQUIREMENTS: readonly string[] = Object.values(SCORE_IFF);

const RANGE_RULES = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

export interface AttributedViolation extends SchemaViolation {
  /** The resource the pointer lies in (the item schema for an envelope). */
  resource: string;
  /** The pointer within that resource. */
  localPointer: string;
  requirement: string;
}

function locate(violation: SchemaViolation): { resource: string; localPointer: string } {
  const item = ENVELOPE_ITEMS[violation.schema];
  const inRecord = item ? /^\/records\/\d+(\/.*)?$/.exec(violation.pointer) : null;
  if (item && inRecord) return { resource: item, localPointer: inRecord[1] ?? '' };
  return { resource: violation.schema, localPointer: violation.pointer };
}

function partnerRequirement(localPointer: string): string {
  if (/^\/patient(\/|$)/.test(localPointer)) return 'SCH-PATIENT-CORE';
  if (/^\/appointments(\/|$)/.test(localPointer)) return 'SCH-APPOINTMENT';
  if (/^\/service_requests\/\d+/.test(localPointer)) return 'SCH-SERVICE-REQUEST';
  return 'SCH-LAB-REQUISITION';
}

export function requirementOf(violation: SchemaViolation): AttributedViolation {
  const { resource, localPointer } = locate(violation);
  const attribute = (requirement: string): AttributedViolation => ({
    ...violation,
    resource,
    localPointer,
    requirement,
  });
  const field = localPointer.split('/').at(-1) ?? '';
  const range = RANGE_RULES.has(violation.rule);
  const isEnvelopeLevel = resource in ENVELOPE_ITEMS;

  if (isEnvelopeLevel) return attribute('SCH-ENVELOPE');
  if (violation.rule === 'oneOf' && /score/.test(violation.message) && SCORE_IFF[resource])
    return attribute(SCORE_IFF[resource]);
  if (
    field === 'score_state' &&
    (violation.rule === 'enum' || violation.rule === 'const' || violation.rule === 'type')
  ) {
    return attribute(resource === 'workout' ? 'SCH-WORKOUT' : 'INV-SCORE-STATE-ENUM');
  }
  if (range && field === 'strain') return attribute('INV-STRAIN-RANGE');
  if (range && /(_percentage|^recovery_score|^percent_recorded)$/.test(field))
    return attribute('INV-PERCENTAGE-RANGE');
  if (range && field === 'need_from_recent_nap_milli') return attribute('INV-NAP-NEED-NONPOSITIVE');
  if (field === 'timezone_offset' && violation.rule !== 'required') return attribute('SCH-TIMEZONE-OFFSET');
  if (violation.rule === 'format' && /date-time/.test(violation.message)) return attribute('SCH-DATE-TIME');
  if (violation.rule === 'format' && /int(32|64)/.test(violation.message))
    return attribute('SCH-INTEGER-FORMATS');
  if ((resource === 'sleep' || resource === 'workout') && localPointer === '/id')
    return attribute('VER-V2-IDS');
  if (resource === 'recovery' && localPointer === '/sleep_id') return attribute('VER-V2-RECOVERY-SLEEP-ID');
  if (
    resource === 'workout' &&
    /zone_duration\b/.test(`${localPointer} ${violation.message}`) &&
    !/zone_durations/.test(localPointer)
  ) {
    return attribute('VER-V2-ZONE-DURATIONS');
  }
  if (resource === 'lab-requisition') return attribute(partnerRequirement(localPointer));
  const requirements = RESOURCE_REQUIREMENTS[resource];
  if (!requirements) return attribute('SCH-ENVELOPE');
  return attribute(
    requirements.score && /^\/score(\/|$)/.test(localPointer) ? requirements.score : requirements.whole,
  );
}
