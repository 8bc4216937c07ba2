/**
 * The plan catalogue as partners see it: the plans' limits and offers (organizations/plans.ts, offers.ts)
 * joined with the payment-provider ids of the stage the code runs in (configuration).
 */
import { PLAN_LIMITS, PLAN_TYPES, type PlanType } from '../organizations';
import { CREDITS, PLAN_OFFERS } from './offers';
import { CURRENCY, formatEuros } from './money';
import { eventsOfPlan, type EventType } from '../events';
import { defineSettings, type AppConfig } from '../platform/config';

/** Payment-provider ids of one stage: one price per paid plan, and the credits product and price. */
export interface ProviderPriceIds {
  SUBSCRIPTION: string;
  ENTERPRISE: string;
  creditsProduct: string;
  creditsPrice: string;
}

/** The ids `npm start` and the tests use when none are configured. */
export const LOCAL_PRICE_IDS: ProviderPriceIds = {
  SUBSCRIPTION: 'price_local_subscription',
  ENTERPRISE: 'price_local_enterprise',
  creditsProduct: 'prod_local_credits',
  creditsPrice: 'price_local_credits',
};

export type PaidPlanType = Exclude<PlanType, 'FREE'>;

export interface PlanTier {
  planType: PlanType;
  displayName: string;
  monthlyPrice: string;
  /** monthlyPrice in minor units of `currency` (cents). */
  monthlyPriceAmount: number;
  mappingsPerDay: number;
  maxSuppliers: number;
  webhookEvents: EventType[];
  pricePerMillion: string | null;
  pricePerMillionAmount: number | null;
  currency: string;
  features: string[];
  providerPriceId: string | null;
}

export interface CreditsProduct {
  name: string;
  description: string;
  pricePerMillion: string;
  pricePerMillionAmount: number;
  currency: string;
  minimumCredits: number;
  providerProductId: string;
  providerPriceId: string;
}

export interface PlanCatalogue {
  tiers: PlanTier[];
  credits: CreditsProduct;
}

export function planCatalogue(priceIds: ProviderPriceIds): PlanCatalogue {
  const creditPrice = formatEuros(CREDITS.centsPerMillion);
  return {
    tiers: PLAN_TYPES.map((planType) => {
      const limits = PLAN_LIMITS[planType];
      const offer = PLAN_OFFERS[planType];
      return {
        planType,
        displayName: limits.displayName,
        monthlyPrice: offer.monthlyPriceCents === 0 ? formatEuros(0) : `${formatEuros(offer.monthlyPriceCents)} / month`,
        monthlyPriceAmount: offer.monthlyPriceCents,
        mappingsPerDay: limits.mappingsPerDay,
        maxSuppliers: limits.maxSuppliers,
        webhookEvents: eventsOfPlan(planType),
        // Every plan pays for mappings beyond its daily allowance with credits, at the credit rate.
        pricePerMillion: creditPrice,
        pricePerMillionAmount: CREDITS.centsPerMillion,
        currency: CURRENCY,
        features: [...offer.features],
        providerPriceId: planType === 'FREE' ? null : priceIds[planType],
      };
    }),
    credits: {
      name: 'Mapping credits',
      description:
        'Prepaid pay-as-you-go mappings, used beyond the daily allowance. 1,000,000 credits = 1,000,000 mappings = €1.00. ' +
        'Credits do not expire.',
      pricePerMillion: creditPrice,
      pricePerMillionAmount: CREDITS.centsPerMillion,
      currency: CURRENCY,
      minimumCredits: CREDITS.minimumMillions * CREDITS.perMillion,
      providerProductId: priceIds.creditsProduct,
      providerPriceId: priceIds.creditsPrice,
    },
  };
}

/** The paid plan a provider price id subscribes to; undefined for any other id. */
export function planOfPrice(priceIds: ProviderPriceIds, priceId: string): PaidPlanType | undefined {
  if (priceId === priceIds.SUBSCRIPTION) return 'SUBSCRIPTION';
  if (priceId === priceIds.ENTERPRISE) return 'ENTERPRISE';
  return undefined;
}

/** The environment variables carrying a stage's price ids (the CDK stack sets them). */
export const PRICE_ID_SETTINGS = defineSettings({
  SUBSCRIPTION: 'STRIPE_PRICE_SUBSCRIPTION',
  ENTERPRISE: 'STRIPE_PRICE_ENTERPRISE',
  creditsProduct: 'STRIPE_PRODUCT_CREDITS',
  creditsPrice: 'STRIPE_PRICE_CREDITS',
} satisfies Record<keyof ProviderPriceIds, string>);

/** The price ids in the configuration; each one unset falls back to its local id. */
export function priceIdsOfConfig(config: Pick<AppConfig, 'variables'>): ProviderPriceIds {
  return { ...LOCAL_PRICE_IDS, ...PRICE_ID_SETTINGS.read(config) };
}
