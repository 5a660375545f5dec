// The traceability catalogue (specs/requirements.yaml), and every query on it: a check asks here which
// requirement states a rule for an operation, never searches the list itself.
import { join } from 'node:path';
import { packageRoot } from '../run-state/package.ts';
import type { Operation } from './operation-model.ts';
import type { RequirementId } from './requirement-ids.ts';
import { readYamlFile } from './yaml-file.ts';

export type { RequirementId };

/**
 * MUST: the seed states it; a check fails on it. READING: the seed states the point loosely; the suite's
 * reading of it (`reading`) is checked as a warning, a failure only in strict mode. UNSPECIFIED: "not
 * shown"; recorded as a note.
 */
export type RequirementLevel = 'MUST' | 'READING' | 'UNSPECIFIED';

export interface Requirement {
  id: string;
  level: RequirementLevel;
  section: string;
  operations: string[];
  text: string;
  derived?: string;
  /** The suite's reading where the seed is loose: departures from it are warnings. */
  reading?: string;
  /** false for a stated rule no black-box client can observe; `reason` says why. */
  verifiable: boolean;
  reason?: string;
}

export const requirementsPath = join(packageRoot, 'specs', 'requirements.yaml');

export function loadRequirements(): Requirement[] {
  const document = readYamlFile(requirementsPath) as {
    requirements: (Omit<Requirement, 'verifiable'> & { verifiable?: boolean })[];
  };
  return document.requirements.map(
    (entry) => ({ ...entry, verifiable: entry.verifiable !== false }) as Requirement,
  );
}

export const requirements: readonly Requirement[] = loadRequirements();

const byId = new Map<string, Requirement>(requirements.map((requirement) => [requirement.id, requirement]));

// The catalogue's queries, each named for what it returns when nothing matches: `find…` returns undefined,
// the others throw (a missing entry is a mistake of the suite, never of the target).

/** Whether the catalogue holds `id` (src/contract/requirement-ids.ts is its type). */
export const isRequirementId = (id: string): id is RequirementId => byId.has(id);

/** The requirement `id`, or undefined when the catalogue has none. */
export function findRequirement(id: string): Requirement | undefined {
  return byId.get(id);
}

/** The requirement `id`; throws when the catalogue has none. */
export function requirementById(id: string): Requirement {
  const requirement = byId.get(id);
  if (!requirement) throw new Error(`specs/requirements.yaml has no requirement ${id}`);
  return requirement;
}

const isMust = (requirement: Requirement) => requirement.level === 'MUST';

/** The requirements a conformance test must verify: stated (MUST) and observable. */
export function verifiableMust(): Requirement[] {
  return requirements.filter((requirement) => isMust(requirement) && requirement.verifiable);
}

/** The stated (MUST) requirements no black-box client can observe (each says why in `reason`). */
export function unobservableMust(): Requirement[] {
  return requirements.filter((requirement) => isMust(requirement) && !requirement.verifiable);
}

/** Whether requirement `id` states a rule for `op`; throws when the catalogue has no `id`. */
export function appliesTo(id: string, op: Pick<Operation, 'operationId'>): boolean {
  return requirementById(id).operations.includes(op.operationId);
}

/**
 * The one requirement whose ID starts with `prefix` that the catalogue states for `op` (`SCOPE-READ-`,
 * `ORD-`, `PTN-OWNER-`): where several list `op`, the one stated for `op` alone. Throws unless exactly one.
 */
export function requirementOf(op: Pick<Operation, 'operationId'>, prefix: string): RequirementId {
  const listing = requirements.filter(
    (requirement) => requirement.id.startsWith(prefix) && requirement.operations.includes(op.operationId),
  );
  const found =
    listing.length > 1 ? listing.filter((requirement) => requirement.operations.length === 1) : listing;
  if (found.length !== 1)
    throw new Error(
      `${op.operationId}: expected one ${prefix}* requirement, got ${found.length} (specs/requirements.yaml)`,
    );
  return (found[0] as Requirement).id as RequirementId;
}

/** The OP-* requirement stating `op`'s success response (OP-LIST-CYCLES for listCycles); throws without one. */
export const successRequirement = (op: Pick<Operation, 'operationId'>): RequirementId =>
  requirementOf(op, 'OP-');

/**
 * The requirement an answer of `op` whose body is not JSON breaks: OP-JSON-BODIES ("JSON is used for all
 * request and response bodies") where the catalogue states it for `op`, else `op`'s own success requirement.
 */
export const jsonBodyRequirement = (op: Pick<Operation, 'operationId'>): RequirementId =>
  appliesTo('OP-JSON-BODIES', op) ? 'OP-JSON-BODIES' : successRequirement(op);

/** The area of a requirement: the first part of its seed section. */
export const areaOf = (requirement: Pick<Requirement, 'section'>): string =>
  requirement.section.split(/ › |;/)[0]?.trim() || 'Other';
