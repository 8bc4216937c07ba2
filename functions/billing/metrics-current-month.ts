import { routes } from '../../shared/routes';
import { currentMonthMetricsOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getCurrentMonthMetrics, async ({ principal }, deps) => ({
  status: 200,
  json: await currentMonthMetricsOf(deps.billing, await deps.organizations.require(principal.organizationId), deps.clock.now()),
}));
