/**
 * Metering against DynamoDB Local: reservations for mapping jobs (daily allowance first, then
 * credits), settlement, usage per day / month / supplier, and what the read endpoints report.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { SUPPLIER_CATALOGUE } from '../../infra/local/seed';
import { applyBillingEvent } from '../../shared/billing/billing';
import { DomainError } from '../../shared/platform/errors';
import { describeFailure } from '../../shared/platform/http/errors';
import { startTestApi, type Caller } from '../support/test-api';
import { billingStoreOf, meteringOf } from '../../shared/billing';
import { organizationPartition, queryAll, tableOf } from '../../shared/platform/table';

const api = await startTestApi();
const supplier = SUPPLIER_CATALOGUE.find((s) => s.isActive)!;
const supplierRef = { id: supplier.id, code: supplier.code, name: supplier.name };

/** Credits as a completed purchase grants them (the webhook's own code, after verification). */
async function buyCredits(caller: Caller, millions: number) {
  const outcome = await applyBillingEvent(billingStoreOf(api.runtime), {
    id: `evt_${randomUUID()}`,
    createdAt: Math.floor(api.clock.now().getTime() / 1000),
    customerId: 'cus_unused',
    organizationId: caller.organization.id,
    kind: 'credits_purchased',
    millions,
    amountPaidCents: millions * 100,
  });
  assert.equal(outcome, 'applied');
}

const reserve = (caller: Caller, mappings: number, jobId = randomUUID(), withSupplier = false) =>
  meteringOf(api.runtime).reserve({
    organizationId: caller.organization.id,
    jobId,
    mappings,
    ...(withSupplier && { supplier: supplierRef }),
  });
const settle = (caller: Caller, jobId: string, processed: number) =>
  meteringOf(api.runtime).settle({ organizationId: caller.organization.id, jobId, processed });
const get = async (caller: Caller, path: string) => {
  const response = await api.request('GET', `/api/v1/billing/${path}`, { as: caller });
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  return response.body;
};

describe('reserving mappings for a job', () => {
  it('takes the daily allowance first, then credits, and settles what was used', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    await buyCredits(caller, 5);

    const first = await reserve(caller, 800);
    assert.deepEqual([first.fromAllowance, first.fromCredits], [800, 0]);
    const second = await reserve(caller, 1_200, undefined, true);
    assert.deepEqual([second.fromAllowance, second.fromCredits], [200, 1_000]);
    assert.equal((await get(caller, 'credits/balance')).creditsRemaining, 4_999_000);
    const quota = await get(caller, 'quota/status');
    assert.equal(quota.mappingsUsedToday, 1_000);
    assert.equal(quota.quotaType, 'credit_balance');
    assert.equal(quota.creditBalance, 4_999_000);

    // The first job processed 500 of 800: 300 of the allowance comes back.
    assert.deepEqual(await settle(caller, first.jobId, 500), {
      processed: 500,
      allowanceUsed: 500,
      creditsUsed: 0,
      allowanceRefund: 300,
      creditsRefund: 0,
    });
    // The second processed 700 of 1,200: its 200 allowance first, then 500 credits; 500 credits back.
    assert.deepEqual(await settle(caller, second.jobId, 700), {
      processed: 700,
      allowanceUsed: 200,
      creditsUsed: 500,
      allowanceRefund: 0,
      creditsRefund: 500,
    });
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 4_999_500, creditsUsed: 500, totalSpent: 5 });
    const after = await get(caller, 'quota/status');
    assert.equal(after.mappingsUsedToday, 700);
    assert.equal(after.quotaType, 'daily_limit');
    assert.equal(after.remainingQuota, 300 + 4_999_500);
    assert.equal(after.creditBalance, undefined);

    assert.deepEqual(await get(caller, 'usage'), {
      period: '2026-11',
      totalMappings: 1_200,
      totalCost: 0.0005,
      bySupplier: [{ supplierId: supplier.id, supplierCode: supplier.code, supplierName: supplier.name, mappings: 700, cost: 0.0005 }],
    });
    const planUsage = await get(caller, 'plan');
    assert.equal(planUsage.matchesUsed, 1_200);
    assert.equal(planUsage.matchesPerMonth, 30_000);
    assert.equal(planUsage.quotaRemaining, 28_800);
    assert.equal(planUsage.usagePercentage, 4);
    assert.equal(planUsage.monthlyTotalCost, 0.0005);
  });

  it('refuses with DomainError forbidden (403 {error: "Forbidden"}) when neither covers it, changing nothing', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    await reserve(caller, 900);
    const refused = await reserve(caller, 101).then(
      () => assert.fail('reserved beyond the allowance without credits'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof DomainError);
    assert.equal(refused.kind, 'forbidden');
    const failure = describeFailure(refused)!;
    assert.equal(failure.status, 403);
    assert.equal(failure.body.error, 'Forbidden');
    assert.match(failure.body.message, /101 mappings requested, 100 left/);
    assert.equal((await get(caller, 'quota/status')).mappingsUsedToday, 900);
    // What is left still fits.
    assert.equal((await reserve(caller, 100)).fromAllowance, 100);
  });

  it('reserving or settling the same job again changes nothing', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    const jobId = randomUUID();
    const first = await reserve(caller, 600, jobId);
    assert.deepEqual(await reserve(caller, 600, jobId), first);
    assert.equal((await get(caller, 'quota/status')).mappingsUsedToday, 600);
    const settled = await settle(caller, jobId, 400);
    assert.deepEqual(await settle(caller, jobId, 10), settled);
    assert.equal((await get(caller, 'quota/status')).mappingsUsedToday, 400);
    assert.equal((await get(caller, 'usage')).totalMappings, 400);
  });

  it('50 parallel reservations against a balance that covers 20 grant exactly 20; the balance never goes below zero', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    await reserve(caller, 1_000); // the day's allowance is spent: only credits remain
    await buyCredits(caller, 5); // 5,000,000 credits = 20 × 250,000
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => reserve(caller, 250_000)));
    const granted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(granted.length, 20);
    assert.equal(refused.length, 30);
    assert.ok(
      refused.every((r) => r.reason instanceof DomainError && r.reason.kind === 'forbidden'),
      String(refused[0]?.reason),
    );
    const account = await billingStoreOf(api.runtime).account(caller.organization.id);
    assert.equal(account.creditsRemaining, 0);
    const quota = await get(caller, 'quota/status');
    assert.equal(quota.canProceed, false);
    assert.equal(quota.creditBalance, undefined);
  });

  it('charges mappings done at once: allowance then credits, usage per month and supplier, no reservation; parallel charges never overspend', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    await buyCredits(caller, 1);
    const charge = (mappings: number, withSupplier = false) =>
      meteringOf(api.runtime).charge({ organizationId: caller.organization.id, mappings, ...(withSupplier && { supplier: supplierRef }) });

    assert.deepEqual(await charge(900), { fromAllowance: 900, fromCredits: 0 });
    assert.deepEqual(await charge(300, true), { fromAllowance: 100, fromCredits: 200 });
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 999_800, creditsUsed: 200, totalSpent: 1 });
    assert.equal((await get(caller, 'quota/status')).mappingsUsedToday, 1_000);
    assert.deepEqual(await get(caller, 'usage'), {
      period: '2026-11',
      totalMappings: 1_200,
      totalCost: 0.0002,
      bySupplier: [{ supplierId: supplier.id, supplierCode: supplier.code, supplierName: supplier.name, mappings: 300, cost: 0.0002 }],
    });
    const table = tableOf(api.runtime);
    const items = await queryAll<{ SK: string }>(table, {
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': organizationPartition(caller.organization.id) },
      ProjectionExpression: 'SK',
    });
    assert.equal(items.filter((item) => /RESERVATION/i.test(item.SK)).length, 0, 'a charge leaves no reservation to settle');

    // 40 parallel charges of 50,000 against 999,800 credits: exactly 19 pass, and the balance stays at or above zero.
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => charge(50_000)));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 19);
    assert.ok(
      outcomes.every(
        (outcome) => outcome.status === 'fulfilled' || (outcome.reason instanceof DomainError && outcome.reason.kind === 'forbidden'),
      ),
    );
    assert.equal((await get(caller, 'credits/balance')).creditsRemaining, 49_800);
    await assert.rejects(
      charge(49_801),
      (error: unknown) =>
        error instanceof DomainError && error.kind === 'forbidden' && /49,801 mappings requested, 0 left/.test(error.message),
    );
    assert.equal((await get(caller, 'credits/balance')).creditsRemaining, 49_800);
  });

  it('the daily allowance resets at midnight UTC; monthly metrics roll over at the month boundary', async () => {
    api.clock.set('2026-11-30T23:58:00.000Z');
    const caller = await api.newOrganization({ planType: 'FREE' });
    const lateJob = await reserve(caller, 1_000);
    const exhausted = await get(caller, 'quota/status');
    assert.equal(exhausted.canProceed, false);
    assert.equal(exhausted.quotaType, 'credit_balance');
    assert.equal(exhausted.remainingQuota, 0);
    assert.match(exhausted.message, /Daily limit reached/);

    api.clock.set('2026-12-01T00:00:30.000Z');
    const fresh = await get(caller, 'quota/status');
    assert.equal(fresh.canProceed, true);
    assert.equal(fresh.quotaType, 'daily_limit');
    assert.equal(fresh.mappingsUsedToday, 0);
    assert.equal(fresh.remainingQuota, 1_000);

    // The November job ends in December: it counts in November, the month it was reserved in.
    await settle(caller, lateJob.jobId, 1_000);
    const decemberJob = await reserve(caller, 300);
    await settle(caller, decemberJob.jobId, 250);

    const current = await get(caller, 'metrics/current-month');
    assert.deepEqual(current, { billingMonth: '2026-12', matchesProcessed: 250, costPerMatch: 0, totalCost: 0, usagePercentage: 0.81 });
    assert.equal((await get(caller, 'usage')).period, '2026-12');
    assert.equal((await get(caller, 'plan')).matchesPerMonth, 31_000);
    const history = await get(caller, 'metrics/history');
    assert.deepEqual(history, [
      { billingMonth: '2026-12', matchesProcessed: 250, costPerMatch: 0, totalCost: 0 },
      { billingMonth: '2026-11', matchesProcessed: 1_000, costPerMatch: 0, totalCost: 0 },
    ]);
    // The November day's usage stays where it was.
    assert.equal((await billingStoreOf(api.runtime).day(caller.organization.id, '2026-11-30')).mappings, 1_000);
  });
});

describe('tenant isolation', () => {
  it("an organization never sees or spends another's balance, usage or subscription", async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const owner = await api.newOrganization({ planType: 'FREE' });
    const other = await api.newOrganization({ planType: 'FREE' });
    await buyCredits(owner, 5);
    const job = await reserve(owner, 3_000, undefined, true);
    await settle(owner, job.jobId, 3_000);

    assert.deepEqual(await get(other, 'credits/balance'), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });
    assert.deepEqual(await get(other, 'usage'), { period: '2026-11', totalMappings: 0, totalCost: 0, bySupplier: [] });
    assert.equal((await get(other, 'quota/status')).mappingsUsedToday, 0);
    assert.equal((await get(other, 'plan')).matchesUsed, 0);
    assert.equal((await get(other, 'metrics/current-month')).matchesProcessed, 0);
    assert.equal((await api.request('GET', '/api/v1/billing/subscription', { as: other })).text, 'null');
    // The other organization cannot draw on the owner's credits.
    await assert.rejects(reserve(other, 1_001), (error: unknown) => error instanceof DomainError && error.kind === 'forbidden');
    assert.equal((await get(owner, 'credits/balance')).creditsRemaining, 4_998_000);
  });
});
