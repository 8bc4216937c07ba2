import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { apiKeyView } from '../../shared/api-keys/views';

export const handler = defineHandler(routes.listApiKeys, async ({ principal }, { apiKeys }) => {
  const records = await apiKeys.listForOrganization(principal.organizationId);
  return { status: 200, json: { apiKeys: records.map(apiKeyView), total: records.length } };
});
