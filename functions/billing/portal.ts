import { routes } from '../../shared/routes';
import { openPortal } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/platform/http/handler';
import { hostedPageUrl } from '../../shared/billing/payments/payments';
import { billingPorts } from '../../shared/billing/services';

export const handler = defineHandler(routes.openPortal, async ({ principal, body, baseUrl }, deps) => {
  const organization = await deps.organizations.require(principal.organizationId);
  const url = await openPortal(billingPorts(deps), { organization, returnUrl: body.returnUrl });
  return { status: 200, json: { portalUrl: hostedPageUrl(url, baseUrl) } };
});
