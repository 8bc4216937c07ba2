import { routes } from '../../shared/api/routes';
import { openPortal } from '../../shared/billing/billing';
import { defineHandler } from '../../shared/http/handler';
import { hostedPageUrl } from '../../shared/payments/payments';
import { billingPorts } from '../../shared/runtime/payments';

export const handler = defineHandler(routes.openPortal, async ({ principal, body, baseUrl }, deps) => {
  const organization = await deps.organizations.require(principal.organizationId);
  const url = await openPortal(billingPorts(deps), { organization, returnUrl: body.returnUrl });
  return { status: 200, json: { portalUrl: hostedPageUrl(url, baseUrl) } };
});
