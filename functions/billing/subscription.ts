import { routes } from '../../shared/api/routes';
import { currentSubscription } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/http/handler';
import { billingPorts } from '../../shared/runtime/payments';

export const handler = defineHandler(routes.getSubscription, async ({ principal }, deps) => ({
  status: 200,
  json: await currentSubscription(billingPorts(deps), principal.organizationId),
}));
