import type { PlanType } from '../organizations';

/**
 * What each plan sells (the billing catalogue; GET /api/v1/billing/plans). Prices are integer
 * cents; the payment-provider price ids are configuration per stage (shared/billing/catalogue.ts).
 * Every plan's daily allowance is included in its monthly price; mappings beyond it use credits.
 */
export interface PlanOffer {
  monthlyPriceCents: number;
  features: readonly string[];
}

/**
 * What every plan includes. A feature is listed as one plan's only if the service refuses it below
 * that plan (the limits in PLAN_LIMITS); mapping modes and export formats are open to all.
 */
export const EVERY_PLAN_FEATURES = ['STANDARD, ID_TO_ID and HYBRID mapping', 'Custom export formats'] as const;

export const PLAN_OFFERS: Record<PlanType, PlanOffer> = {
  FREE: {
    monthlyPriceCents: 0,
    features: [
      '1,000 mappings per day',
      'Up to 2 suppliers',
      ...EVERY_PLAN_FEATURES,
      'Pay-as-you-go credits beyond the daily allowance',
      'Webhooks on completed jobs',
    ],
  },
  SUBSCRIPTION: {
    monthlyPriceCents: 4_900,
    features: ['100,000 mappings per day', 'Up to 10 suppliers', ...EVERY_PLAN_FEATURES, 'Webhooks on review decisions'],
  },
  ENTERPRISE: {
    monthlyPriceCents: 49_900,
    features: [
      '5,000,000 mappings per day',
      'Up to 100 suppliers',
      ...EVERY_PLAN_FEATURES,
      'Priority support',
      'Webhooks on duplicate resolutions',
    ],
  },
};

/** Prepaid credits: 1 credit = 1 mapping; 1,000,000 credits = 1 euro. Sold by the million. */
export const CREDITS = {
  perMillion: 1_000_000,
  centsPerMillion: 100,
  /** The smallest purchase, in millions (5,000,000 credits = 5 euros). */
  minimumMillions: 5,
  /**
   * The largest single purchase, in millions (10,000,000,000 credits = 10,000 euros): the hosted
   * page's adjustable-quantity maximum. A larger need is several purchases (or a conversation).
   */
  maximumMillions: 10_000,
} as const;
