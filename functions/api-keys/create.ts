import { routes } from '../../shared/routes';
import { issueApiKey } from '../../shared/platform/auth/credentials';
import { defineHandler } from '../../shared/platform/http/handler';
import { apiKeyView } from '../../shared/api-keys/views';

/** Partners create partner keys only; admin keys are made with `npm run admin`. */
export const handler = defineHandler(routes.createApiKey, async ({ principal, body }, { apiKeys, clock }) => {
  const issued = issueApiKey({ organizationId: principal.organizationId, name: body.name, role: 'partner', now: clock.now() });
  await apiKeys.create(issued.record);
  return { status: 201, json: { ...apiKeyView(issued.record), apiKey: issued.plaintext } };
});
