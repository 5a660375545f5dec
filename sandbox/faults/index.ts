// The catalogue of injectable faults. Each fault breaks exactly one requirement of specs/requirements.yaml.
// user.ts and partner.ts hold them by area; both spread in the wrong-success-status faults that status.ts
// generates from its operationId table.
import { partnerFaults } from './partner.ts';
import { userFaults } from './user.ts';

export interface FaultDefinition {
  /** The requirement ID (specs/requirements.yaml) this fault violates. */
  requirement: string;
  area: 'user-data' | 'auth' | 'utility' | 'partner';
  description: string;
}

export const faults = { ...userFaults, ...partnerFaults } satisfies Record<string, FaultDefinition>;
export type FaultName = keyof typeof faults;
