import { routes } from '../../shared/routes';
import { currentSubscription } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/platform/http/handler';
import { billingPorts } from '../../shared/billing/services';

export const handler = defineHandler(routes.getSubscription, async ({ principal }, deps) => ({
  status: 200,
  json: await currentSubscription(billingPorts(deps), principal.organizationId),
}));
