/** The billing endpoints: plans, hosted checkout and portal pages, the caller's usage, and Stripe's webhook. */
import { organizationStoreOf } from '../organizations';
import type { Implementation } from '../platform/http/endpoint';
import { log } from '../platform/logging';
import type { Runtime } from '../platform/runtime';
import { applyBillingEvent, currentSubscription, openPortal, startCreditPurchase, startSubscriptionCheckout } from './billing';
import { planCatalogue } from './catalogue';
import { hostedPageUrl } from './payments/payments';
import { creditBalanceOf, currentMonthMetricsOf, metricsHistoryOf, planUsageOf, quotaStatusOf, usageOf } from './reports';
import { billingRoutes } from './routes';
import { billingPortsOf, billingStoreOf, paymentsOf, priceIdsOf } from './services';

const organizationOf = (runtime: Runtime, organizationId: string) => organizationStoreOf(runtime).require(organizationId);

export const listPlans: Implementation<typeof billingRoutes.listPlans> = async ({ principal }, runtime) => {
  const organization = principal && (await organizationStoreOf(runtime).get(principal.organizationId));
  return {
    status: 200,
    json: { ...planCatalogue(priceIdsOf(runtime)), ...(organization && { currentPlan: organization.planType }) },
  };
};

export const startCheckout: Implementation<typeof billingRoutes.startCheckout> = async ({ principal, body, baseUrl }, runtime) => {
  const organization = await organizationOf(runtime, principal.organizationId);
  const url = await startSubscriptionCheckout(billingPortsOf(runtime), { organization, ...body });
  return { status: 200, json: { checkoutUrl: hostedPageUrl(url, baseUrl) } };
};

export const purchaseCredits: Implementation<typeof billingRoutes.purchaseCredits> = async ({ principal, body, baseUrl }, runtime) => {
  const organization = await organizationOf(runtime, principal.organizationId);
  const url = await startCreditPurchase(billingPortsOf(runtime), { organization, ...body });
  return { status: 200, json: { checkoutUrl: hostedPageUrl(url, baseUrl) } };
};

export const openCustomerPortal: Implementation<typeof billingRoutes.openPortal> = async ({ principal, body, baseUrl }, runtime) => {
  const organization = await organizationOf(runtime, principal.organizationId);
  const url = await openPortal(billingPortsOf(runtime), { organization, returnUrl: body.returnUrl });
  return { status: 200, json: { portalUrl: hostedPageUrl(url, baseUrl) } };
};

export const getSubscription: Implementation<typeof billingRoutes.getSubscription> = async ({ principal }, runtime) => ({
  status: 200,
  json: await currentSubscription(billingPortsOf(runtime), principal.organizationId),
});

export const getPlanUsage: Implementation<typeof billingRoutes.getPlanUsage> = async ({ principal }, runtime) => ({
  status: 200,
  json: await planUsageOf(billingStoreOf(runtime), await organizationOf(runtime, principal.organizationId), runtime.clock.now()),
});

export const getQuotaStatus: Implementation<typeof billingRoutes.getQuotaStatus> = async ({ principal }, runtime) => ({
  status: 200,
  json: await quotaStatusOf(billingStoreOf(runtime), await organizationOf(runtime, principal.organizationId), runtime.clock.now()),
});

export const getCreditBalance: Implementation<typeof billingRoutes.getCreditBalance> = async ({ principal }, runtime) => ({
  status: 200,
  json: await creditBalanceOf(billingStoreOf(runtime), principal.organizationId),
});

export const getUsage: Implementation<typeof billingRoutes.getUsage> = async ({ principal }, runtime) => ({
  status: 200,
  json: await usageOf(billingStoreOf(runtime), principal.organizationId, runtime.clock.now()),
});

export const getCurrentMonthMetrics: Implementation<typeof billingRoutes.getCurrentMonthMetrics> = async ({ principal }, runtime) => ({
  status: 200,
  json: await currentMonthMetricsOf(billingStoreOf(runtime), await organizationOf(runtime, principal.organizationId), runtime.clock.now()),
});

export const getMetricsHistory: Implementation<typeof billingRoutes.getMetricsHistory> = async ({ principal, query }, runtime) => ({
  status: 200,
  json: await metricsHistoryOf(
    billingStoreOf(runtime),
    await organizationOf(runtime, principal.organizationId),
    runtime.clock.now(),
    query.limit,
  ),
});

/** Stripe's deliveries: verified on the raw body, then applied once (billing.ts). */
export const stripeWebhook: Implementation<typeof billingRoutes.stripeWebhook> = async ({ body, headers, requestId }, runtime) => {
  const event = await paymentsOf(runtime).events.read(body, headers['stripe-signature'], runtime.clock.now());
  if ('ignored' in event) {
    log('info', 'payment event ignored', { requestId, type: event.ignored });
    return { status: 200, json: { received: true, outcome: 'ignored' } };
  }
  const outcome = await applyBillingEvent(billingStoreOf(runtime), event);
  log(outcome === 'unknown_customer' ? 'warn' : 'info', 'payment event', { requestId, eventId: event.id, kind: event.kind, outcome });
  return { status: 200, json: { received: true, outcome } };
};
