/** The plans an organization can be on and the limits each one sets. */
export const PLAN_TYPES = ['FREE', 'SUBSCRIPTION', 'ENTERPRISE'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export interface PlanLimits {
  planType: PlanType;
  displayName: string;
  /** Mappings included per UTC day before credits are drawn. */
  mappingsPerDay: number;
  /** Distinct suppliers an organization may ever connect. */
  maxSuppliers: number;
}

export const PLAN_LIMITS: Record<PlanType, PlanLimits> = {
  FREE: { planType: 'FREE', displayName: 'Free', mappingsPerDay: 1_000, maxSuppliers: 2 },
  SUBSCRIPTION: { planType: 'SUBSCRIPTION', displayName: 'Professional', mappingsPerDay: 100_000, maxSuppliers: 10 },
  ENTERPRISE: { planType: 'ENTERPRISE', displayName: 'Enterprise', mappingsPerDay: 5_000_000, maxSuppliers: 100 },
};

export function isPlanType(value: string): value is PlanType {
  return (PLAN_TYPES as readonly string[]).includes(value);
}

/**
 * What each plan sells (the billing catalogue; GET /api/v1/billing/plans). Prices are integer
 * cents; the payment-provider price ids are configuration per stage (shared/billing/catalogue.ts).
 * Every plan's daily allowance is included in its monthly price; mappings beyond it use credits.
 */
export interface PlanOffer {
  monthlyPriceCents: number;
  features: readonly string[];
}

export const PLAN_OFFERS: Record<PlanType, PlanOffer> = {
  FREE: {
    monthlyPriceCents: 0,
    features: ['1,000 mappings per day', 'Up to 2 suppliers', 'Pay-as-you-go credits beyond the daily allowance'],
  },
  SUBSCRIPTION: {
    monthlyPriceCents: 4_900,
    features: ['100,000 mappings per day', 'Up to 10 suppliers', 'ID_TO_ID and HYBRID mapping', 'Webhook subscriptions'],
  },
  ENTERPRISE: {
    monthlyPriceCents: 49_900,
    features: ['5,000,000 mappings per day', 'Up to 100 suppliers', 'Priority support', 'Custom export formats'],
  },
};

/** Prepaid credits: 1 credit = 1 mapping; 1,000,000 credits = 1 euro. Sold by the million. */
export const CREDITS = {
  perMillion: 1_000_000,
  centsPerMillion: 100,
  /** The smallest purchase, in millions (5,000,000 credits = 5 euros). */
  minimumMillions: 5,
} as const;
