import { defineRoute, type AnySchema, type RouteDefinition } from '../platform/http/route';
import * as schemas from './schemas';
import { ErrorResponse } from '../platform/http/schemas';
import { errors } from '../platform/http/responses';

const TAG = 'Billing';
/** Routes that call the payment provider read its keys. */
const PROVIDER = { table: 'readwrite', providerKeys: 'api' } as const;

/* @__NO_SIDE_EFFECTS__ */
/** A read of the caller's own billing state: GET /api/v1/billing/<path>, credential required. */
function billingReport<const P extends string, const H extends string>(
  path: P,
  handler: H,
  text: { summary: string; description: string },
  response: { description: string; schema: AnySchema },
) {
  return defineRoute({
    method: 'GET',
    path: `/api/v1/billing/${path}`,
    handler: `billing/${handler}`,
    auth: 'required',
    tag: TAG,
    ...text,
    responses: { 200: response, 401: errors[401] },
    access: { table: 'read' },
  } as const);
}

export const billingRoutes = {
  listPlans: defineRoute({
    method: 'GET',
    path: '/api/v1/billing/plans',
    handler: 'billing/plans',
    auth: 'optional',
    tag: TAG,
    summary: 'Plan tiers and the credits product; currentPlan with a valid credential',
    description:
      "Public. Each tier's price, daily allowance, supplier limit, webhook event types and features, and the credits product; `providerPriceId` is what POST /api/v1/billing/checkout takes.",
    responses: { 200: { description: 'The catalogue', schema: schemas.PlansResponse } },
    access: { table: 'read', providerIds: true },
  }),
  startCheckout: defineRoute({
    method: 'POST',
    path: '/api/v1/billing/checkout',
    handler: 'billing/checkout',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: "A hosted checkout page subscribing to a paid tier (priceId = the tier's providerPriceId)",
    description:
      'An organization has at most one live subscription: while it has one (active, trialing, past_due, unpaid or ' +
      'paused), this answers 409; plans are changed or cancelled in the billing portal (POST /api/v1/billing/portal).',
    body: {
      kind: 'json',
      schema: schemas.CheckoutRequest,
      example: {
        priceId: 'price_local_subscription',
        successUrl: 'https://partner.example/billing/done',
        cancelUrl: 'https://partner.example/billing',
      },
    },
    responses: {
      200: { description: 'Redirect the user to checkoutUrl', schema: schemas.CheckoutResponse },
      400: { description: 'Invalid body, or priceId is not a paid tier', schema: ErrorResponse },
      401: errors[401],
      409: { description: 'The organization already has a live subscription: change plans in the portal', schema: ErrorResponse },
      415: errors[415],
    },
    access: PROVIDER,
  }),
  openPortal: defineRoute({
    method: 'POST',
    path: '/api/v1/billing/portal',
    handler: 'billing/portal',
    auth: 'required',
    tag: TAG,
    summary: 'The hosted portal: payment methods, invoices, cancel or change the subscription',
    description:
      "Answers the URL of the payment provider's hosted portal, where the organization manages its subscription, payment methods and invoices; `returnUrl` is where the portal sends the user back.",
    body: { kind: 'json', schema: schemas.PortalRequest, example: { returnUrl: 'https://partner.example/billing' } },
    responses: {
      200: { description: 'Redirect the user to portalUrl', schema: schemas.PortalResponse },
      400: errors[400],
      401: errors[401],
      415: errors[415],
    },
    access: PROVIDER,
  }),
  purchaseCredits: defineRoute({
    method: 'POST',
    path: '/api/v1/billing/credits/purchase',
    handler: 'billing/credits-purchase',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: 'A hosted checkout page buying credits by the million (at least 5,000,000 credits)',
    description: 'The quantity (millions of credits, at least 5) is chosen on the hosted page. Credits never expire.',
    body: {
      kind: 'json',
      schema: schemas.CreditPurchaseRequest,
      example: {
        priceId: 'price_local_credits',
        successUrl: 'https://partner.example/billing/done',
        cancelUrl: 'https://partner.example/billing',
      },
    },
    responses: {
      200: { description: 'Redirect the user to checkoutUrl', schema: schemas.CheckoutResponse },
      400: { description: 'Invalid body, or priceId is not the credits price', schema: ErrorResponse },
      401: errors[401],
      415: errors[415],
    },
    access: PROVIDER,
  }),
  getSubscription: defineRoute({
    method: 'GET',
    path: '/api/v1/billing/subscription',
    handler: 'billing/subscription',
    auth: 'required',
    tag: TAG,
    summary: "The organization's subscription as the payment provider reports it now; null if it never subscribed",
    description: "Read from the payment provider at the time of the request, not from a copy: what the provider's hosted pages show.",
    responses: { 200: { description: 'The subscription, or null', schema: schemas.SubscriptionView }, 401: errors[401] },
    access: { table: 'read', providerKeys: 'api' },
  }),
  getPlanUsage: billingReport(
    'plan',
    'plan',
    {
      summary: 'The plan and its use in the current billing period (the calendar month, UTC)',
      description: "The plan, its allowance for the month (the daily allowance times the month's days) and what has been used of it.",
    },
    { description: 'Plan usage summary', schema: schemas.PlanUsageSummary },
  ),
  getQuotaStatus: billingReport(
    'quota/status',
    'quota-status',
    {
      summary: 'Whether mappings can be submitted now (check canProceed before large batches)',
      description:
        "`remainingQuota` is today's allowance left plus credits; a job needs its inventory's row count. Mappings of running jobs count as used.",
    },
    { description: 'Quota status', schema: schemas.QuotaStatusView },
  ),
  getCreditBalance: billingReport(
    'credits/balance',
    'credits-balance',
    {
      summary: 'Credits left, used, and paid for',
      description: 'Credits never expire; mappings beyond the daily allowance use them, one credit per mapping.',
    },
    { description: 'Credit balance', schema: schemas.CreditBalanceView },
  ),
  getUsage: billingReport(
    'usage',
    'usage',
    {
      summary: 'Usage in the current billing period, in total and per supplier',
      description: 'Mappings this billing period, in total and per supplier, as settled when each job completed.',
    },
    { description: 'Usage summary', schema: schemas.UsageSummaryView },
  ),
  getCurrentMonthMetrics: billingReport(
    'metrics/current-month',
    'metrics-current-month',
    {
      summary: 'Metrics of the current calendar month (UTC)',
      description: "The current month's figures (UTC), as GET /api/v1/billing/metrics/history gives them for earlier months.",
    },
    { description: 'Monthly metrics', schema: schemas.MonthlyMetricsView },
  ),
  getMetricsHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/billing/metrics/history',
    handler: 'billing/metrics-history',
    auth: 'required',
    tag: TAG,
    summary: 'Monthly metrics, most recent first',
    description:
      'The `limit` most recent calendar months up to the current one (default and maximum 12; a larger value is ' +
      '400), never before the month the organization was created. Months without usage are zeros.',
    query: schemas.MetricsHistoryQuery,
    responses: { 200: { description: 'Monthly metrics', schema: schemas.MonthlyMetricsList }, 400: errors[400], 401: errors[401] },
    access: { table: 'read' },
  }),
  stripeWebhook: defineRoute({
    method: 'POST',
    path: '/api/v1/billing/stripe/webhook',
    // Public: a forged flood is refused here before it reaches the five reserved instances; Stripe retries a 429 for days.
    throttle: { ratePerSecond: 10, burst: 20 },
    handler: 'billing/stripe-webhook',
    internal: true,
    auth: 'none',
    tag: TAG,
    summary: "Stripe's event deliveries (not for partners): the only writer of paid plan and credit state",
    description:
      'Verifies the Stripe-Signature header over the raw body. Applies checkout.session.completed, ' +
      'customer.subscription.created/updated/deleted and invoice.payment_failed exactly once; other types are ' +
      'acknowledged and ignored.',
    body: { kind: 'raw', contentType: 'application/json', description: 'A Stripe event, exactly as Stripe sent it' },
    responses: {
      200: { description: 'Received', schema: schemas.WebhookAcknowledgement },
      400: {
        description: 'Missing or invalid Stripe-Signature, or a purchase too large to count exactly; nothing changed',
        schema: ErrorResponse,
      },
      415: errors[415],
    },
    // An event changes the billing of the organization its customer belongs to (ORG#…), found by
    // customer (PAYCUSTOMER#…), and is marked processed once (PAYEVENT#…): no other partition.
    // BillingStore's event path reads those items by key, puts each event's processed marker once
    // and updates the billing and organization items; it never queries, batches or deletes.
    access: {
      table: 'readwrite',
      partitions: ['ORG#*', 'PAYCUSTOMER#*', 'PAYEVENT#*'],
      tableUses: { get: ['ORG#*', 'PAYCUSTOMER#*'], put: ['PAYEVENT#*'], update: ['ORG#*'] },
      providerKeys: 'events',
    },
    // Paid plans and credits arrive here: it must answer when the account is busy (Stripe retries, but for days).
    lambda: { reservedConcurrency: 5 },
  }),
} satisfies Record<string, RouteDefinition>;
