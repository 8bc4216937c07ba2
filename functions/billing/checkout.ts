import { routes } from '../../shared/api/routes';
import { startSubscriptionCheckout } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/http/handler';
import { hostedPageUrl } from '../../shared/payments/payments';
import { billingPorts } from '../../shared/runtime/payments';

export const handler = defineHandler(routes.startCheckout, async ({ principal, body, baseUrl }, deps) => {
  const organization = await deps.organizations.require(principal.organizationId);
  const url = await startSubscriptionCheckout(billingPorts(deps), { organization, ...body });
  return { status: 200, json: { checkoutUrl: hostedPageUrl(url, baseUrl) } };
});
