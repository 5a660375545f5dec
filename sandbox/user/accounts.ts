// The sandbox's test users: login credentials from sandbox/sandbox.env, fixed personal data here.
import type { SandboxCredentials } from '../credentials.ts';

export interface Account {
  userId: number;
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  /** Time zone designator of the user's records. */
  timezoneOffset: string;
  /** Device generation 4.0 or later: recoveries carry spo2_percentage and skin_temp_celsius. */
  deviceGeneration4: boolean;
  heightMeter: number;
  weightKilogram: number;
  maxHeartRate: number;
}

export function buildAccounts(credentials: SandboxCredentials): readonly Account[] {
  const [a, b] = credentials.users;
  return [
    {
      userId: 10129,
      ...a,
      firstName: 'Ada',
      lastName: 'Sandbox',
      timezoneOffset: '-05:00',
      deviceGeneration4: true,
      heightMeter: 1.6764,
      weightKilogram: 61.2349,
      maxHeartRate: 192,
    },
    {
      userId: 10235,
      ...b,
      firstName: 'Ben',
      lastName: 'Sandbox',
      timezoneOffset: '+05:30',
      deviceGeneration4: false,
      heightMeter: 1.8288,
      weightKilogram: 84.1,
      maxHeartRate: 186,
    },
  ];
}
