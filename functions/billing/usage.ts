import { routes } from '../../shared/routes';
import { usageOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getUsage, async ({ principal }, deps) => ({
  status: 200,
  json: await usageOf(deps.billing, principal.organizationId, deps.clock.now()),
}));
