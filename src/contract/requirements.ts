// Loads the traceability catalogue (specs/requirements.yaml).
import { fileURLToPath } from 'node:url';
import { readYamlFile } from './yaml-file.ts';

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

export const requirementsPath = fileURLToPath(new URL('../../specs/requirements.yaml', import.meta.url));

export function loadRequirements(): Requirement[] {
  const document = readYamlFile(requirementsPath) as {
    requirements: (Omit<Requirement, 'verifiable'> & { verifiable?: boolean })[];
  };
  return document.requirements.map(
    (entry) => ({ ...entry, verifiable: entry.verifiable !== false }) as Requirement,
  );
}

export const requirements: readonly Requirement[] = loadRequirements();

const byId = new Map(requirements.map((requirement) => [requirement.id, requirement]));

export function requirementById(id: string): Requirement | undefined {
  return byId.get(id);
}

/** Requirements a conformance test must verify (stated and observable). */
export function verifiableMustRequirements(): Requirement[] {
  return requirements.filter((requirement) => requirement.level === 'MUST' && requirement.verifiable);
}

/** The OP-* requirement stating an operation's success response (e.g. OP-LIST-CYCLES for listCycles). */
export function successRequirementFor(operationId: string): string | undefined {
  const found = requirements.filter(
    (r) => r.id.startsWith('OP-') && r.operations.length === 1 && r.operations[0] === operationId,
  );
  return found.length === 1 ? found[0]?.id : undefined;
}
