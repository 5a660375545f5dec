// Loads the traceability catalogue (specs/requirements.yaml).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type RequirementLevel = 'MUST' | 'UNSPECIFIED';

export interface Requirement {
  id: string;
  level: RequirementLevel;
  section: string;
  operations: string[];
  text: string;
  derived?: string;
  /** false for a stated rule no black-box client can observe; `reason` says why. */
  verifiable: boolean;
  reason?: string;
}

export const requirementsPath = fileURLToPath(new URL('../../specs/requirements.yaml', import.meta.url));

export function loadRequirements(): Requirement[] {
  const document = parse(readFileSync(requirementsPath, 'utf8')) as {
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
