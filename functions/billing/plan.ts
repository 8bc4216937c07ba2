import { routes } from '../../shared/routes';
import { planUsageOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getPlanUsage, async ({ principal }, deps) => ({
  status: 200,
  json: await planUsageOf(deps.billing, await deps.organizations.require(principal.organizationId), deps.clock.now()),
}));
