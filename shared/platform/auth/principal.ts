/**
 * Who is calling, as the HTTP pipeline knows it: a verified principal of an organization, with a
 * role. How a credential becomes a principal is the api-keys capability's (an `Authenticate`
 * port given to the credentialed handlers).
 */
import type { Runtime } from '../runtime';

export const KEY_ROLES = ['partner', 'admin'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

export interface Principal {
  organizationId: string;
  keyId: string;
  role: KeyRole;
  credential: 'api_key' | 'bearer';
}

/** Header names in lower case, as the HTTP layer normalizes them. */
export type Headers = Readonly<Record<string, string | undefined>>;

/** Verifies the request's credential; throws `unauthenticated` for a missing or unusable one. */
export interface Authenticate {
  authenticate(headers: Headers, now: Date): Promise<Principal>;
}

/** The runtime's authenticator, built on first use. */
export type AuthenticatorOf = (runtime: Runtime) => Authenticate;

export function hasCredential(headers: Headers): boolean {
  return headers['x-api-key'] !== undefined || headers['authorization'] !== undefined;
}
