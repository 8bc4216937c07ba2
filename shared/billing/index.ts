/** Billing: plans, credits, quota and metering, paid through Stripe-hosted pages. */
export { billingRoutes } from './routes';
export {
  getCreditBalance,
  getCurrentMonthMetrics,
  getMetricsHistory,
  getPlanUsage,
  getQuotaStatus,
  getSubscription,
  getUsage,
  listPlans,
  openCustomerPortal,
  purchaseCredits,
  startCheckout,
  stripeWebhook,
} from './endpoints';
export { billingStoreOf, meteringOf, paymentsOf, priceIdsOf } from './services';
export { CREDITS, PLAN_OFFERS } from './offers';
export type { Metering } from './metering';
export { creditPriceCents, formatEuros } from './money';
export { LOCAL_PRICE_IDS, PRICE_ID_SETTINGS, type ProviderPriceIds } from './catalogue';
export { PAYMENT_SETTINGS, STRIPE_SECRET_SHAPES, UNSET_STRIPE_KEY } from './payments/payments';
/** The local payment provider, whose hosted pages the local runtime serves. */
export {
  LOCAL_PAYMENT_PAGES,
  type CheckoutCompletion,
  type LocalCheckout,
  type LocalPaymentProvider,
  type SignedDelivery,
} from './payments/local-provider';
export { CREDIT_QUANTITY_RULE, parseCreditQuantity } from './credit-purchases';
export { billingComponentSchemas } from './schemas';
