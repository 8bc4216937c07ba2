import { routes } from '../../shared/routes';
import { quotaStatusOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getQuotaStatus, async ({ principal }, deps) => ({
  status: 200,
  json: await quotaStatusOf(deps.billing, await deps.organizations.require(principal.organizationId), deps.clock.now()),
}));
