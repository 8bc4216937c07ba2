import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { apiKeyView } from './view';

export const handler = defineHandler(routes.listApiKeys, async ({ principal }, { apiKeys }) => {
  const records = await apiKeys.listForOrganization(principal.organizationId);
  return { status: 200, json: { apiKeys: records.map(apiKeyView), total: records.length } };
});
