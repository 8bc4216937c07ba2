/**
 * The pure rules of metering and quota: how a job's mappings are funded, what a finished job
 * gives back, and what the read endpoints report. No I/O; every number is an integer until the
 * edge formats euros.
 */
import { PLAN_LIMITS, type PlanType } from '../organizations';
import { creditsToEuros, percentage } from './money';
import { daysInMonth } from './periods';
import type { MonthlyUsage, Reservation, Settlement, SubscriptionState, SupplierUsage } from './model';

/** The day's allowance first, then credits; undefined when the two together do not cover it. */
export function fundReservation(input: {
  requested: number;
  dailyLimit: number;
  allowanceUsed: number;
  creditsRemaining: number;
}): { fromAllowance: number; fromCredits: number } | undefined {
  const allowanceLeft = Math.max(0, input.dailyLimit - input.allowanceUsed);
  const fromAllowance = Math.min(input.requested, allowanceLeft);
  const fromCredits = input.requested - fromAllowance;
  return fromCredits <= input.creditsRemaining ? { fromAllowance, fromCredits } : undefined;
}

/** A finished job uses its allowance part first (it is free), and gives back what it did not use. */
export function settle(reservation: Pick<Reservation, 'fromAllowance' | 'fromCredits'>, processed: number): Settlement {
  const reserved = reservation.fromAllowance + reservation.fromCredits;
  const used = Math.max(0, Math.min(processed, reserved));
  const allowanceUsed = Math.min(used, reservation.fromAllowance);
  const creditsUsed = used - allowanceUsed;
  return {
    processed: used,
    allowanceUsed,
    creditsUsed,
    allowanceRefund: reservation.fromAllowance - allowanceUsed,
    creditsRefund: reservation.fromCredits - creditsUsed,
  };
}

/** The plan an organization is on while its subscription is in this state. */
export function planWhileSubscribed(subscription: Pick<SubscriptionState, 'status' | 'planType'>): PlanType {
  // past_due keeps the plan while the provider retries the payment; an ended subscription does not.
  return ['active', 'trialing', 'past_due'].includes(subscription.status) ? subscription.planType : 'FREE';
}

export interface QuotaStatus {
  canProceed: boolean;
  message: string;
  remainingQuota: number;
  usagePercentage: number;
  planType: PlanType;
  quotaType: 'daily_limit' | 'credit_balance';
  mappingsPerDayLimit: number;
  mappingsUsedToday: number;
  maxSuppliers: number;
  creditBalance?: number;
}

/**
 * daily_limit while today's allowance lasts; credit_balance once it is used up and credits fund
 * further mappings. remainingQuota is what can be submitted now: allowance left plus credits.
 */
export function quotaStatus(input: { planType: PlanType; allowanceUsedToday: number; creditsRemaining: number }): QuotaStatus {
  const limits = PLAN_LIMITS[input.planType];
  const allowanceLeft = Math.max(0, limits.mappingsPerDay - input.allowanceUsedToday);
  const quotaType = allowanceLeft > 0 ? 'daily_limit' : 'credit_balance';
  const canProceed = allowanceLeft > 0 || input.creditsRemaining > 0;
  const count = (n: number) => n.toLocaleString('en-US');
  const message =
    allowanceLeft > 0
      ? `${count(allowanceLeft)} of ${count(limits.mappingsPerDay)} daily mappings left.`
      : input.creditsRemaining > 0
        ? `Daily limit reached; ${count(input.creditsRemaining)} credits left for further mappings.`
        : 'Daily limit reached and no credits left. Buy credits or upgrade the plan to continue.';
  return {
    canProceed,
    message,
    remainingQuota: allowanceLeft + input.creditsRemaining,
    usagePercentage: percentage(input.allowanceUsedToday, limits.mappingsPerDay),
    planType: input.planType,
    quotaType,
    mappingsPerDayLimit: limits.mappingsPerDay,
    mappingsUsedToday: input.allowanceUsedToday,
    maxSuppliers: limits.maxSuppliers,
    ...(quotaType === 'credit_balance' && input.creditsRemaining > 0 && { creditBalance: input.creditsRemaining }),
  };
}

/** Mappings the plan includes in a month: its daily allowance on every day of that month. */
export function monthlyAllowance(planType: PlanType, month: string): number {
  return PLAN_LIMITS[planType].mappingsPerDay * daysInMonth(month);
}

/** Euros a mapping costs beyond the allowance (the credit rate). */
export const PRICE_PER_MATCH_EUROS = creditsToEuros(1);

export function planUsageSummary(planType: PlanType, usage: MonthlyUsage) {
  const matchesPerMonth = monthlyAllowance(planType, usage.month);
  return {
    planName: planType,
    displayName: PLAN_LIMITS[planType].displayName,
    matchesPerMonth,
    pricePerMatch: PRICE_PER_MATCH_EUROS,
    matchesUsed: usage.mappings,
    monthlyTotalCost: creditsToEuros(usage.costCredits),
    quotaRemaining: Math.max(0, matchesPerMonth - usage.mappings),
    usagePercentage: percentage(usage.mappings, matchesPerMonth),
  };
}

/** One month's metrics; usagePercentage is given for the current month only (the contract's form). */
export function monthlyMetrics(usage: MonthlyUsage, currentPlan?: PlanType) {
  return {
    billingMonth: usage.month,
    matchesProcessed: usage.mappings,
    // The average actual cost: allowance mappings are free, credit mappings cost the credit rate.
    costPerMatch: usage.mappings === 0 ? 0 : creditsToEuros(usage.costCredits) / usage.mappings,
    totalCost: creditsToEuros(usage.costCredits),
    ...(currentPlan && { usagePercentage: percentage(usage.mappings, monthlyAllowance(currentPlan, usage.month)) }),
  };
}

export function usageSummary(usage: MonthlyUsage, suppliers: SupplierUsage[]) {
  return {
    period: usage.month,
    totalMappings: usage.mappings,
    totalCost: creditsToEuros(usage.costCredits),
    bySupplier: [...suppliers]
      .sort((a, b) => b.mappings - a.mappings || a.supplierCode.localeCompare(b.supplierCode))
      .map((s) => ({
        supplierId: s.supplierId,
        supplierCode: s.supplierCode,
        supplierName: s.supplierName,
        mappings: s.mappings,
        cost: creditsToEuros(s.costCredits),
      })),
  };
}
