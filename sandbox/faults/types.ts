// The shape of one injectable fault, apart from the catalogue (index.ts) so the catalogue's members
// (user.ts, partner.ts, status.ts) depend on it without depending on the catalogue that gathers them.

export interface FaultDefinition {
  /** The requirement ID (specs/requirements.yaml) this fault violates. */
  requirement: string;
  area: 'user-data' | 'auth' | 'utility' | 'partner';
  description: string;
}
