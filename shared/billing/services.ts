/** The runtime's billing services: the ledger, metering, and the payment provider (Stripe, or the local one). */
import { organizationStoreOf } from '../organizations';
import { service } from '../platform/runtime';
import { tableOf } from '../platform/table';
import { priceIdsOfConfig, type ProviderPriceIds } from './catalogue';
import { Metering } from './metering';
import { LocalPaymentStore } from './payments/local-store';
import { createPayments, PAYMENT_SETTINGS } from './payments/payments';
import { BillingStore } from './store';

export const billingStoreOf = /* @__PURE__ */ service((runtime) => new BillingStore(tableOf(runtime)));

/** The stage's provider price ids (STRIPE_PRICE_*), or the local placeholders. */
export const priceIdsOf = /* @__PURE__ */ service((runtime): ProviderPriceIds => priceIdsOfConfig(runtime.config));

export const meteringOf = /* @__PURE__ */ service(
  (runtime) =>
    new Metering(
      billingStoreOf(runtime),
      { planOf: async (id) => (await organizationStoreOf(runtime).require(id)).planType },
      runtime.clock,
    ),
);

export const paymentsOf = /* @__PURE__ */ service((runtime) =>
  createPayments(
    { ...PAYMENT_SETTINGS.read(runtime.config), region: runtime.config.region, priceIds: priceIdsOf(runtime) },
    runtime.clock,
    () => new LocalPaymentStore(tableOf(runtime)),
  ),
);

/** The ports the checkout, portal and subscription use cases work through. */
export const billingPortsOf = /* @__PURE__ */ service((runtime) => ({
  ledger: billingStoreOf(runtime),
  provider: paymentsOf(runtime).provider,
  priceIds: priceIdsOf(runtime),
}));
