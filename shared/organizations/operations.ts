/**
 * Back-office operations on organizations and keys, shared by `npm run admin`, the local seed and
 * the tests.
 */
import { randomUUID } from 'node:crypto';
import { issueApiKey, type IssuedApiKey, type KeyRole } from '../platform/auth/credentials';
import type { Organization } from './organization';
import type { PlanType } from './plans';
import type { Dependencies } from '../platform/runtime';

type Stores = Pick<Dependencies, 'organizations' | 'apiKeys' | 'clock'>;

export async function createOrganization(
  deps: Stores,
  input: { name: string; planType: PlanType; id?: string },
): Promise<Organization> {
  const organization: Organization = {
    id: input.id ?? randomUUID(),
    name: input.name,
    planType: input.planType,
    createdAt: deps.clock.now().toISOString(),
    suppliersEverConnected: 0,
  };
  await deps.organizations.create(organization);
  return organization;
}

export async function createApiKey(
  deps: Stores,
  input: { organizationId: string; name: string; role: KeyRole },
): Promise<IssuedApiKey> {
  if (!(await deps.organizations.get(input.organizationId))) {
    throw new Error(`No organization has the id ${input.organizationId}.`);
  }
  const issued = issueApiKey({ ...input, now: deps.clock.now() });
  await deps.apiKeys.create(issued.record);
  return issued;
}
