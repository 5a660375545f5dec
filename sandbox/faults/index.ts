// The catalogue of injectable faults. Each fault breaks exactly one requirement of specs/requirements.yaml.
// user.ts and partner.ts hold them by area; both spread in the wrong-success-status faults that status.ts
// generates from its operationId table. Their shape, FaultDefinition, lives in types.ts (re-exported here).
import { partnerFaults } from './partner.ts';
import type { FaultDefinition } from './types.ts';
import { userFaults } from './user.ts';

export type { FaultDefinition } from './types.ts';

export const faults = { ...userFaults, ...partnerFaults } satisfies Record<string, FaultDefinition>;
export type FaultName = keyof typeof faults;
