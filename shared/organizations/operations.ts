/** Back-office creation of organizations, shared by `npm run admin`, the local seed and the tests. */
import { randomUUID } from 'node:crypto';
import type { Runtime } from '../platform/runtime';
import type { Organization } from './organization';
import type { PlanType } from './plans';
import { organizationStoreOf } from './store';

export async function createOrganization(
  runtime: Runtime,
  input: { name: string; planType: PlanType; id?: string },
): Promise<Organization> {
  const organization: Organization = {
    id: input.id ?? randomUUID(),
    name: input.name,
    planType: input.planType,
    createdAt: runtime.clock.now().toISOString(),
    suppliersEverConnected: 0,
  };
  await organizationStoreOf(runtime).create(organization);
  return organization;
}
