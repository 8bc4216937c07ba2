import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.revokeApiKey, async ({ principal, params }, { apiKeys, clock }) => {
  const revoked = await apiKeys.revoke(principal.organizationId, params.keyId, clock.now());
  if (!revoked) throw notFound(`Your organization has no API key ${params.keyId}.`);
  return { status: 204 };
});
