// The sandbox's fixed credentials, read from sandbox/sandbox.env (the single source: the suite loads the
// same file as its environment when it targets the sandbox). Parsed with dotenv, as the suite reads it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'dotenv';

export const credentialsPath = fileURLToPath(new URL('./sandbox.env', import.meta.url));

export interface UserCredential {
  username: string;
  password: string;
}

export interface PartnerCredential {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}

export interface SandboxCredentials {
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /** The two test users, A first. */
  users: readonly [UserCredential, UserCredential];
  /** The two partners, A first. */
  partners: readonly [PartnerCredential, PartnerCredential];
}

export function credentialsFromEnv(env: Record<string, string | undefined>): SandboxCredentials {
  const get = (key: string): string => {
    const value = env[key];
    if (!value) throw new Error(`sandbox credentials: ${key} is missing`);
    return value;
  };
  return {
    client: {
      clientId: get('CONFORMANCE_CLIENT_ID'),
      clientSecret: get('CONFORMANCE_CLIENT_SECRET'),
      redirectUri: get('CONFORMANCE_REDIRECT_URI'),
    },
    users: [
      { username: get('CONFORMANCE_USER'), password: get('CONFORMANCE_PASSWORD') },
      { username: get('CONFORMANCE_USER_B'), password: get('CONFORMANCE_PASSWORD_B') },
    ],
    partners: [
      {
        clientId: get('CONFORMANCE_PARTNER_A_CLIENT_ID'),
        clientSecret: get('CONFORMANCE_PARTNER_A_CLIENT_SECRET'),
        signingSecret: get('CONFORMANCE_PARTNER_A_SIGNING_SECRET'),
      },
      {
        clientId: get('CONFORMANCE_PARTNER_B_CLIENT_ID'),
        clientSecret: get('CONFORMANCE_PARTNER_B_CLIENT_SECRET'),
        signingSecret: get('CONFORMANCE_PARTNER_B_SIGNING_SECRET'),
      },
    ],
  };
}

let cached: SandboxCredentials | undefined;

/** The credentials of sandbox/sandbox.env (read once). */
export function loadSandboxCredentials(): SandboxCredentials {
  cached ??= credentialsFromEnv(parse(readFileSync(credentialsPath, 'utf8')));
  return cached;
}
