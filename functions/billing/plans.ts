import { routes } from '../../shared/routes';
import { planCatalogue } from '../../shared/billing/catalogue';
import { defineHandler } from '../../shared/platform/http/handler';
import { priceIdsOf } from '../../shared/billing/catalogue';

export const handler = defineHandler(routes.listPlans, async ({ principal }, deps) => {
  const organization = principal && (await deps.organizations.get(principal.organizationId));
  return {
    status: 200,
    json: { ...planCatalogue(priceIdsOf(deps.config)), ...(organization && { currentPlan: organization.planType }) },
  };
});
