import { routes } from '../../shared/routes';
import { creditBalanceOf } from '../../shared/billing/reports';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.getCreditBalance, async ({ principal }, deps) => ({
  status: 200,
  json: await creditBalanceOf(deps.billing, principal.organizationId),
}));
