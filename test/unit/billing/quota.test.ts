import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { LOCAL_PRICE_IDS, planCatalogue, planOfPrice } from '../../../shared/billing/catalogue';
import {
  fundReservation,
  monthlyAllowance,
  monthlyMetrics,
  planWhileSubscribed,
  quotaStatus,
  settle,
  usageSummary,
} from '../../../shared/billing/quota';
import { PLAN_LIMITS } from '../../../shared/organizations/plans';

describe('funding a reservation', () => {
  const fund = (requested: number, allowanceUsed: number, creditsRemaining: number) =>
    fundReservation({ requested, dailyLimit: 1_000, allowanceUsed, creditsRemaining });

  it("uses the day's allowance first, then credits", () => {
    assert.deepEqual(fund(400, 0, 0), { fromAllowance: 400, fromCredits: 0 });
    assert.deepEqual(fund(400, 800, 500), { fromAllowance: 200, fromCredits: 200 });
    assert.deepEqual(fund(400, 1_000, 400), { fromAllowance: 0, fromCredits: 400 });
    assert.deepEqual(fund(0, 1_000, 0), { fromAllowance: 0, fromCredits: 0 });
  });

  it('refuses when the two together do not cover it, even by one', () => {
    assert.equal(fund(401, 1_000, 400), undefined);
    assert.equal(fund(1_001, 0, 0), undefined);
    // An allowance over-used (a plan downgrade mid-day) counts as none left.
    assert.deepEqual(fund(10, 5_000, 10), { fromAllowance: 0, fromCredits: 10 });
  });
});

describe('settling a job', () => {
  it('spends the allowance part first and gives back the rest', () => {
    assert.deepEqual(settle({ fromAllowance: 300, fromCredits: 700 }, 500), {
      processed: 500,
      allowanceUsed: 300,
      creditsUsed: 200,
      allowanceRefund: 0,
      creditsRefund: 500,
    });
    assert.deepEqual(settle({ fromAllowance: 300, fromCredits: 700 }, 100), {
      processed: 100,
      allowanceUsed: 100,
      creditsUsed: 0,
      allowanceRefund: 200,
      creditsRefund: 700,
    });
  });

  it('never charges more than was reserved, nor less than nothing', () => {
    assert.equal(settle({ fromAllowance: 10, fromCredits: 5 }, 99).processed, 15);
    assert.deepEqual(settle({ fromAllowance: 10, fromCredits: 5 }, -3), {
      processed: 0,
      allowanceUsed: 0,
      creditsUsed: 0,
      allowanceRefund: 10,
      creditsRefund: 5,
    });
  });
});

describe('quota status', () => {
  it('is daily_limit while the allowance lasts, without creditBalance', () => {
    const status = quotaStatus({ planType: 'FREE', allowanceUsedToday: 250, creditsRemaining: 7 });
    assert.equal(status.quotaType, 'daily_limit');
    assert.equal(status.canProceed, true);
    assert.equal(status.remainingQuota, 757);
    assert.equal(status.usagePercentage, 25);
    assert.equal(status.mappingsPerDayLimit, 1_000);
    assert.equal(status.maxSuppliers, 2);
    assert.equal('creditBalance' in status, false);
    assert.equal(status.message, '750 of 1,000 daily mappings left.');
  });

  it('is credit_balance once the allowance is used, with creditBalance only above zero', () => {
    const funded = quotaStatus({ planType: 'FREE', allowanceUsedToday: 1_000, creditsRemaining: 5_000_000 });
    assert.equal(funded.quotaType, 'credit_balance');
    assert.equal(funded.canProceed, true);
    assert.equal(funded.creditBalance, 5_000_000);
    assert.equal(funded.usagePercentage, 100);
    const empty = quotaStatus({ planType: 'FREE', allowanceUsedToday: 1_000, creditsRemaining: 0 });
    assert.equal(empty.canProceed, false);
    assert.equal(empty.remainingQuota, 0);
    assert.equal('creditBalance' in empty, false);
    assert.match(empty.message, /no credits left/);
  });
});

describe('plans and subscriptions', () => {
  it('keeps the plan while a subscription is active, trialing or past due; FREE once it ended', () => {
    for (const status of ['active', 'trialing', 'past_due'])
      assert.equal(planWhileSubscribed({ status, planType: 'ENTERPRISE' }), 'ENTERPRISE');
    for (const status of ['canceled', 'unpaid', 'incomplete_expired'])
      assert.equal(planWhileSubscribed({ status, planType: 'SUBSCRIPTION' }), 'FREE');
  });

  it('knows which price subscribes to which plan; the credits price and others are none', () => {
    assert.equal(planOfPrice(LOCAL_PRICE_IDS, LOCAL_PRICE_IDS.SUBSCRIPTION), 'SUBSCRIPTION');
    assert.equal(planOfPrice(LOCAL_PRICE_IDS, LOCAL_PRICE_IDS.ENTERPRISE), 'ENTERPRISE');
    assert.equal(planOfPrice(LOCAL_PRICE_IDS, LOCAL_PRICE_IDS.creditsPrice), undefined);
    assert.equal(planOfPrice(LOCAL_PRICE_IDS, 'price_other'), undefined);
  });

  it("the catalogue keeps the plans' limits and uses the stage's price ids", () => {
    const ids = { SUBSCRIPTION: 'price_s', ENTERPRISE: 'price_e', creditsProduct: 'prod_c', creditsPrice: 'price_c' };
    const { tiers, credits } = planCatalogue(ids);
    assert.deepEqual(
      tiers.map((t) => [t.planType, t.maxSuppliers, t.providerPriceId]),
      [
        ['FREE', 2, null],
        ['SUBSCRIPTION', 10, 'price_s'],
        ['ENTERPRISE', 100, 'price_e'],
      ],
    );
    assert.deepEqual(
      tiers.map((t) => t.mappingsPerDay),
      [1_000, 100_000, 5_000_000],
    );
    assert.equal(tiers[2]!.monthlyPrice, '€499.00 / month');
    assert.deepEqual([credits.providerProductId, credits.providerPriceId, credits.minimumCredits], ['prod_c', 'price_c', 5_000_000]);
  });
});

describe('reports', () => {
  it('a month includes the daily allowance on each of its days', () => {
    assert.equal(monthlyAllowance('FREE', '2026-02'), 28_000);
    assert.equal(monthlyAllowance('FREE', '2028-02'), 29_000);
    assert.equal(monthlyAllowance('SUBSCRIPTION', '2026-12'), PLAN_LIMITS.SUBSCRIPTION.mappingsPerDay * 31);
  });

  it('monthly metrics: average cost per match in euros; usagePercentage only for the current-month form', () => {
    const usage = { month: '2026-11', mappings: 4_000, costCredits: 3_000 };
    assert.deepEqual(monthlyMetrics(usage), {
      billingMonth: '2026-11',
      matchesProcessed: 4_000,
      costPerMatch: 0.00000075,
      totalCost: 0.003,
    });
    assert.equal(monthlyMetrics(usage, 'FREE').usagePercentage, 13.33);
    assert.equal(monthlyMetrics({ month: '2026-11', mappings: 0, costCredits: 0 }).costPerMatch, 0);
  });

  it('usage by supplier: most mappings first, costs in euros', () => {
    const supplier = (code: string, mappings: number, costCredits: number) => ({
      month: '2026-11',
      supplierId: `id-${code}`,
      supplierCode: code,
      supplierName: code.toUpperCase(),
      mappings,
      costCredits,
    });
    const summary = usageSummary({ month: '2026-11', mappings: 30, costCredits: 2_000_000 }, [
      supplier('a', 10, 0),
      supplier('b', 20, 2_000_000),
    ]);
    assert.equal(summary.totalCost, 2);
    assert.deepEqual(
      summary.bySupplier.map((s) => [s.supplierCode, s.mappings, s.cost]),
      [
        ['b', 20, 2],
        ['a', 10, 0],
      ],
    );
  });
});
