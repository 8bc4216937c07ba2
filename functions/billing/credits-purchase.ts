import { routes } from '../../shared/routes';
import { startCreditPurchase } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/platform/http/handler';
import { hostedPageUrl } from '../../shared/billing/payments/payments';
import { billingPorts } from '../../shared/billing/services';

export const handler = defineHandler(routes.purchaseCredits, async ({ principal, body, baseUrl }, deps) => {
  const organization = await deps.organizations.require(principal.organizationId);
  const url = await startCreditPurchase(billingPorts(deps), { organization, ...body });
  return { status: 200, json: { checkoutUrl: hostedPageUrl(url, baseUrl) } };
});
