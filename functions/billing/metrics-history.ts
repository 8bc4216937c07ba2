import { routes } from '../../shared/routes';
import { metricsHistoryOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getMetricsHistory, async ({ principal, query }, deps) => ({
  status: 200,
  json: await metricsHistoryOf(
    deps.billing,
    await deps.organizations.require(principal.organizationId),
    deps.clock.now(),
    query.limit,
  ),
}));
