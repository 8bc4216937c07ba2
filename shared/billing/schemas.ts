/** Request and response schemas of the billing endpoints (valibot; also the OpenAPI document). */
import * as v from 'valibot';
import { PLAN_TYPES } from '../organizations';
import { documentedAs, Timestamp } from '../platform/http/schemas';
import { EVENT_TYPES } from '../events';

const Euros = (description: string) => v.pipe(v.number(), v.description(`Euros: ${description}`));
const Count = (description: string) => v.pipe(v.number(), v.description(description));
/** A price as a client computes with it: whole minor units of `currency` (cents for EUR). */
const MinorUnits = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.description(`${description}, in minor units of currency (cents: 4900 is €49.00)`));
const Currency = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/), v.description('ISO 4217 code, upper case, of the amounts (EUR)'));

/** Hosts a plain-http return URL may name: the developer's own machine. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export const RETURN_URL_MAX_LENGTH = 2_000;

/** https, or http to a loopback host (local development). */
function isSecureOrLoopback(value: string): boolean {
  try {
    const { protocol, hostname } = new URL(value);
    return protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOSTS.includes(hostname));
  } catch {
    return false;
  }
}

/**
 * Where the payment pages send the user back (successUrl, cancelUrl, returnUrl): an absolute
 * https URL (http only to localhost, 127.0.0.1 or [::1]), printable ASCII without spaces, at most
 * 2,000 characters. It ends up in a Location header and at Stripe: the URL parser would quietly
 * drop a CR or LF, so the characters are checked on the text as sent.
 */
export const ReturnUrl = v.pipe(
  v.string(),
  v.maxLength(RETURN_URL_MAX_LENGTH, `must be at most ${RETURN_URL_MAX_LENGTH.toLocaleString('en-US')} characters`),
  v.regex(/^[\x21-\x7e]*$/, 'must be printable ASCII: no spaces or control characters (percent-encode anything else)'),
  v.url('must be an absolute URL'),
  v.regex(/^https?:\/\//i, 'must start with https://'),
  v.check(isSecureOrLoopback, 'must be an https URL (http only for localhost, 127.0.0.1 or [::1])'),
  v.description('Absolute https URL (http only for localhost, 127.0.0.1, [::1]); printable ASCII, no spaces; at most 2,000 characters'),
);

export const CheckoutRequest = v.strictObject({
  priceId: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.description('providerPriceId of a paid plan tier')),
  successUrl: ReturnUrl,
  cancelUrl: ReturnUrl,
});

export const CreditPurchaseRequest = v.strictObject({
  priceId: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.description('providerPriceId of the credits product')),
  successUrl: ReturnUrl,
  cancelUrl: ReturnUrl,
});

export const PortalRequest = v.strictObject({ returnUrl: ReturnUrl });

export const CheckoutResponse = v.object({
  checkoutUrl: v.pipe(v.string(), v.description('Hosted checkout page to redirect the user to')),
});
export const PortalResponse = v.object({ portalUrl: v.pipe(v.string(), v.description('Hosted portal to redirect the user to')) });

const PlanTier = v.object({
  planType: v.picklist(PLAN_TYPES),
  displayName: v.string(),
  monthlyPrice: v.pipe(v.string(), v.description('Formatted for display, e.g. "€49.00 / month"; monthlyPriceAmount is the number')),
  monthlyPriceAmount: MinorUnits('The monthly price'),
  mappingsPerDay: Count('Mappings included per UTC day'),
  maxSuppliers: Count('Distinct suppliers that may be connected'),
  webhookEvents: v.pipe(v.array(v.picklist(EVENT_TYPES)), v.description('Event types webhook subscriptions on this plan may receive')),
  pricePerMillion: v.nullable(
    v.pipe(v.string(), v.description('Price per million mappings beyond the daily allowance (paid in credits), formatted for display')),
  ),
  pricePerMillionAmount: v.nullable(MinorUnits('Price per million mappings beyond the daily allowance')),
  currency: Currency,
  features: v.array(v.string()),
  providerPriceId: v.nullable(v.pipe(v.string(), v.description('Send as priceId to POST /billing/checkout; null for the free tier'))),
});

export const PlansResponse = v.object({
  tiers: v.array(PlanTier),
  credits: v.object({
    name: v.string(),
    description: v.string(),
    pricePerMillion: v.pipe(v.string(), v.description('Formatted for display, e.g. "€1.00"')),
    pricePerMillionAmount: MinorUnits('Price of one million credits'),
    currency: Currency,
    minimumCredits: Count('Smallest purchase, in credits'),
    providerProductId: v.string(),
    providerPriceId: v.pipe(v.string(), v.description('Send as priceId to POST /billing/credits/purchase')),
  }),
  currentPlan: v.optional(v.pipe(v.picklist(PLAN_TYPES), v.description('Present only with a valid credential'))),
});

export const SubscriptionView = v.nullable(
  v.object({
    id: v.pipe(v.string(), v.description('Payment-provider subscription id')),
    status: v.pipe(v.string(), v.description('active, trialing, past_due, canceled, …')),
    planType: v.picklist(PLAN_TYPES),
    currentPeriodStart: Timestamp,
    currentPeriodEnd: Timestamp,
    cancelAtPeriodEnd: v.boolean(),
  }),
);

export const PlanUsageSummary = v.object({
  planName: v.picklist(PLAN_TYPES),
  displayName: v.string(),
  matchesPerMonth: Count('The daily allowance times the days of the current month'),
  pricePerMatch: Euros('price of a mapping beyond the daily allowance'),
  matchesUsed: Count('Mappings processed in the current billing period (calendar month, UTC)'),
  monthlyTotalCost: Euros('credits consumed in the period'),
  quotaRemaining: Count('matchesPerMonth minus matchesUsed, at least 0'),
  usagePercentage: Count('matchesUsed over matchesPerMonth, 0 to 100'),
});

export const QuotaStatusView = v.object({
  canProceed: v.boolean(),
  message: v.string(),
  remainingQuota: Count("Mappings that can be submitted now: today's allowance left plus credits"),
  usagePercentage: Count("Today's allowance used, 0 to 100"),
  planType: v.picklist(PLAN_TYPES),
  quotaType: v.picklist(['daily_limit', 'credit_balance']),
  mappingsPerDayLimit: v.number(),
  mappingsUsedToday: Count("Mappings counted against today's allowance (running jobs included)"),
  maxSuppliers: v.number(),
  creditBalance: v.optional(Count('Only when quotaType is credit_balance and credits remain')),
});

export const CreditBalanceView = v.object({
  creditsRemaining: Count('1,000,000 credits = 1,000,000 mappings = €1'),
  creditsUsed: v.number(),
  totalSpent: Euros('paid for credits, all purchases'),
});

export const UsageSummaryView = v.object({
  period: v.pipe(v.string(), v.description('YYYY-MM')),
  totalMappings: v.number(),
  totalCost: Euros('credits consumed in the period'),
  bySupplier: v.array(
    v.object({
      supplierId: v.string(),
      supplierCode: v.string(),
      supplierName: v.string(),
      mappings: Count('Mappings processed with this supplier in the period'),
      cost: Euros('credits those mappings consumed'),
    }),
  ),
});

const MonthlyMetrics = v.object({
  billingMonth: v.pipe(v.string(), v.description('YYYY-MM')),
  matchesProcessed: v.number(),
  costPerMatch: Euros('average cost of a mapping that month'),
  totalCost: Euros('credits consumed that month'),
  usagePercentage: v.optional(Count("The month's mappings over its allowance, 0 to 100 (current month only)")),
});

export const MonthlyMetricsView = MonthlyMetrics;
export const MonthlyMetricsList = v.array(MonthlyMetrics);

export const METRICS_HISTORY_MAX_MONTHS = 12;

export const MetricsHistoryQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number from 1 to 12'),
      v.transform(Number),
      v.number(),
      v.minValue(1, 'must be a whole number from 1 to 12'),
      v.maxValue(METRICS_HISTORY_MAX_MONTHS, 'must be a whole number from 1 to 12'),
      v.description('Months to return, most recent first: 1 to 12, default 12'),
      documentedAs<number>({ type: 'integer', default: METRICS_HISTORY_MAX_MONTHS }),
      v.examples([6]),
    ),
    String(METRICS_HISTORY_MAX_MONTHS),
  ),
});

export const WebhookAcknowledgement = v.object({
  received: v.literal(true),
  outcome: v.pipe(
    v.picklist(['applied', 'duplicate', 'stale', 'unknown_customer', 'ignored']),
    v.description(
      'applied; duplicate (applied before); stale (older than the stored state); unknown_customer; ignored (event type not used)',
    ),
  ),
});

/** The shapes the OpenAPI document names (components.schemas), each written once and referenced. */
export const billingComponentSchemas = {
  PlanTier,
  PlanCatalogue: PlansResponse,
  QuotaStatus: QuotaStatusView,
  CreditBalance: CreditBalanceView,
  UsageSummary: UsageSummaryView,
} as const;
