/** Back-office key creation (admin keys included), shared by `npm run admin`, the local seed and the tests. */
import { organizationStoreOf } from '../organizations';
import type { KeyRole } from '../platform/auth/principal';
import { issueApiKey, type IssuedApiKey } from './credentials';
import { apiKeyStoreOf } from './services';
import type { Runtime } from '../platform/runtime';

export async function createOrganizationKey(
  runtime: Runtime,
  input: { organizationId: string; name: string; role: KeyRole },
): Promise<IssuedApiKey> {
  if (!(await organizationStoreOf(runtime).get(input.organizationId))) {
    throw new Error(`No organization has the id ${input.organizationId}.`);
  }
  const issued = issueApiKey({ ...input, now: runtime.clock.now() });
  await apiKeyStoreOf(runtime).create(issued.record);
  return issued;
}
