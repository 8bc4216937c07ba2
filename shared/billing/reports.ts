/**
 * What the billing read endpoints answer, composed from the usage ledger and the pure rules.
 * Every period is taken from the injected clock's "now".
 */
import type { Organization } from '../organizations';
import { centsToEuros } from './money';
import type { BillingLedger, UsageLedger } from './model';
import { billingMonth, recentMonths, utcDay } from './periods';
import { monthlyMetrics, planUsageSummary, quotaStatus, usageSummary, type QuotaStatus } from './quota';

type Ledgers = UsageLedger & Pick<BillingLedger, 'account'>;
type Org = Pick<Organization, 'id' | 'planType' | 'createdAt'>;

export async function quotaStatusOf(ledger: Ledgers, organization: Org, now: Date): Promise<QuotaStatus> {
  const [allowanceUsedToday, creditsRemaining] = await Promise.all([
    ledger.allowanceUsed(organization.id, utcDay(now)),
    ledger.creditsRemaining(organization.id),
  ]);
  return quotaStatus({ planType: organization.planType, allowanceUsedToday, creditsRemaining });
}

export async function planUsageOf(ledger: Ledgers, organization: Org, now: Date) {
  return planUsageSummary(organization.planType, await ledger.month(organization.id, billingMonth(now)));
}

export async function creditBalanceOf(ledger: Ledgers, organizationId: string) {
  const account = await ledger.account(organizationId);
  return {
    creditsRemaining: account.creditsRemaining,
    creditsUsed: account.creditsUsed,
    totalSpent: centsToEuros(account.totalSpentCents),
  };
}

export async function usageOf(ledger: Ledgers, organizationId: string, now: Date) {
  const month = billingMonth(now);
  const [usage, suppliers] = await Promise.all([ledger.month(organizationId, month), ledger.suppliers(organizationId, month)]);
  return usageSummary(usage, suppliers);
}

export async function currentMonthMetricsOf(ledger: Ledgers, organization: Org, now: Date) {
  return monthlyMetrics(await ledger.month(organization.id, billingMonth(now)), organization.planType);
}

/** The last `limit` months up to now, most recent first, from the organization's first month on. */
export async function metricsHistoryOf(ledger: Ledgers, organization: Org, now: Date, limit: number) {
  const months = recentMonths(billingMonth(now), limit, billingMonth(new Date(organization.createdAt)));
  if (months.length === 0) return [];
  const stored = await ledger.months(organization.id, months.at(-1)!, months[0]!);
  const byMonth = new Map(stored.map((usage) => [usage.month, usage]));
  return months.map((month) => monthlyMetrics(byMonth.get(month) ?? { month, mappings: 0, costCredits: 0 }));
}
