/** The plans an organization can be on and the limits each one sets (the events each may receive: shared/events). */

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
  SUBSCRIPTION: {
    planType: 'SUBSCRIPTION',
    displayName: 'Professional',
    mappingsPerDay: 100_000,
    maxSuppliers: 10,
  },
  ENTERPRISE: {
    planType: 'ENTERPRISE',
    displayName: 'Enterprise',
    mappingsPerDay: 5_000_000,
    maxSuppliers: 100,
  },
};

export function isPlanType(value: string): value is PlanType {
  return (PLAN_TYPES as readonly string[]).includes(value);
}
