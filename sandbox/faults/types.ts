// The shape of one injectable fault, apart from the catalogue (index.ts) so the catalogue's members
// (user.ts, partner.ts, status.ts) depend on it without depending on the catalogue that gathers them.

export interface FaultDefinition {
  /** The requirement ID (specs/requirements.yaml) this fault violates. */
  requirement: string;
  area: FaultArea;
  description: string;
}

export type FaultArea = 'user-data' | 'auth' | 'utility' | 'partner';

/** The constructor of one area's faults: `(requirement, description)`, the area stated once. */
export const faultsOf =
  <Area extends FaultArea>(area: Area) =>
  (requirement: string, description: string): FaultDefinition & { area: Area } => ({
    requirement,
    area,
    description,
  });
