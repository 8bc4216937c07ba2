/** The plans an organization can be on and the limits each one sets. */
import type { EventType } from '../platform/events/events';

export const PLAN_TYPES = ['FREE', 'SUBSCRIPTION', 'ENTERPRISE'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export interface PlanLimits {
  planType: PlanType;
  displayName: string;
  /** Mappings included per UTC day before credits are drawn. */
  mappingsPerDay: number;
  /** Distinct suppliers an organization may ever connect. */
  maxSuppliers: number;
  /** Webhook event types the plan may subscribe to (MAPPING_COMPLETED is open to every plan). */
  webhookEvents: readonly EventType[];
}

export const PLAN_LIMITS: Record<PlanType, PlanLimits> = {
  FREE: { planType: 'FREE', displayName: 'Free', mappingsPerDay: 1_000, maxSuppliers: 2, webhookEvents: ['MAPPING_COMPLETED'] },
  SUBSCRIPTION: {
    planType: 'SUBSCRIPTION',
    displayName: 'Professional',
    mappingsPerDay: 100_000,
    maxSuppliers: 10,
    webhookEvents: ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED'],
  },
  ENTERPRISE: {
    planType: 'ENTERPRISE',
    displayName: 'Enterprise',
    mappingsPerDay: 5_000_000,
    maxSuppliers: 100,
    webhookEvents: ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED', 'INVENTORY_DUPLICATE_RESOLVED'],
  },
};

/** The first plan (cheapest first) that may subscribe to an event type. */
export function cheapestPlanWithEvent(type: EventType): PlanLimits {
  return PLAN_TYPES.map((planType) => PLAN_LIMITS[planType]).find((limits) => limits.webhookEvents.includes(type))!;
}

export function isPlanType(value: string): value is PlanType {
  return (PLAN_TYPES as readonly string[]).includes(value);
}
