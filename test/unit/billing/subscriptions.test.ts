import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { RecordedSubscription, SubscriptionBook, SubscriptionState } from '../../../shared/billing/model';
import {
  decideSubscriptionNews,
  hasEnded,
  isLive,
  shownSubscription,
  subscriptionBookOf,
  type SubscriptionDecision,
} from '../../../shared/billing/subscriptions';
import type { PlanType } from '../../../shared/organizations/plans';

function state(id: string, planType: PlanType, status = 'active'): SubscriptionState {
  return {
    id,
    status,
    planType,
    currentPeriodStart: '2026-11-01T00:00:00.000Z',
    currentPeriodEnd: '2026-12-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
  };
}

function recorded(id: string, planType: PlanType, at: number, status = 'active'): RecordedSubscription {
  return { ...state(id, planType, status), eventAt: at, firstEventAt: at };
}

function book(subscriptions: RecordedSubscription[], basePlan: PlanType = 'FREE', version = 3): SubscriptionBook {
  return { subscriptions: Object.fromEntries(subscriptions.map((s) => [s.id, s])), basePlan, version };
}

function applied(decision: SubscriptionDecision) {
  assert.equal(decision.kind, 'apply');
  return decision;
}

describe('which subscriptions are live', () => {
  it("counts Stripe's active statuses (active, past_due, unpaid, paused) and trialing; ended ones never come back", () => {
    for (const status of ['active', 'trialing', 'past_due', 'unpaid', 'paused']) assert.equal(isLive({ status }), true, status);
    for (const status of ['canceled', 'incomplete', 'incomplete_expired']) assert.equal(isLive({ status }), false, status);
    assert.deepEqual(
      ['canceled', 'incomplete_expired', 'incomplete', 'active'].map((status) => hasEnded({ status })),
      [true, true, false, false],
    );
  });

  it('shows the live one granting the best plan (the older on a tie); with none live, the one changed last', () => {
    const enterprise = recorded('sub_b', 'ENTERPRISE', 20);
    const professional = recorded('sub_a', 'SUBSCRIPTION', 10);
    assert.equal(shownSubscription(book([professional, enterprise]).subscriptions)?.id, 'sub_b');
    // An unpaid subscription is live (it still bills) but grants nothing.
    const unpaidEnterprise = recorded('sub_c', 'ENTERPRISE', 5, 'unpaid');
    assert.equal(shownSubscription(book([unpaidEnterprise, professional]).subscriptions)?.id, 'sub_a');
    assert.equal(
      shownSubscription(book([recorded('sub_y', 'SUBSCRIPTION', 30), recorded('sub_x', 'SUBSCRIPTION', 10)]).subscriptions)?.id,
      'sub_x',
    );
    const ended = book([recorded('sub_old', 'ENTERPRISE', 10, 'canceled'), recorded('sub_last', 'SUBSCRIPTION', 40, 'canceled')]);
    assert.equal(shownSubscription(ended.subscriptions)?.id, 'sub_last');
    assert.equal(shownSubscription({}), undefined);
  });
});

describe('applying subscription news', () => {
  it('records a first subscription: the plan follows it, the version goes up', () => {
    const decision = applied(
      decideSubscriptionNews(book([], 'FREE', 0), 'FREE', { kind: 'state', createdAt: 100, subscription: state('sub_a', 'SUBSCRIPTION') }),
    );
    assert.equal(decision.planType, 'SUBSCRIPTION');
    assert.equal(decision.shown.id, 'sub_a');
    assert.deepEqual(decision.book.subscriptions.sub_a, { ...state('sub_a', 'SUBSCRIPTION'), eventAt: 100, firstEventAt: 100 });
    assert.equal(decision.book.version, 1);
    assert.deepEqual(decision.liveSubscriptionIds, ['sub_a']);
  });

  it('records a second live subscription beside the first, never replacing it, and reports both live', () => {
    const first = book([recorded('sub_ent', 'ENTERPRISE', 100)]);
    const decision = applied(
      decideSubscriptionNews(first, 'ENTERPRISE', { kind: 'state', createdAt: 200, subscription: state('sub_pro', 'SUBSCRIPTION') }),
    );
    assert.deepEqual(Object.keys(decision.book.subscriptions).sort(), ['sub_ent', 'sub_pro']);
    assert.equal(decision.planType, 'ENTERPRISE');
    assert.equal(decision.shown.id, 'sub_ent');
    assert.deepEqual(decision.liveSubscriptionIds, ['sub_ent', 'sub_pro']);

    // The better one ends: the organization is on the other, not FREE.
    const ended = applied(
      decideSubscriptionNews(decision.book, 'ENTERPRISE', {
        kind: 'state',
        createdAt: 300,
        subscription: state('sub_ent', 'ENTERPRISE', 'canceled'),
      }),
    );
    assert.equal(ended.planType, 'SUBSCRIPTION');
    assert.equal(ended.shown.id, 'sub_pro');
    assert.deepEqual(ended.liveSubscriptionIds, ['sub_pro']);
  });

  it('orders news per subscription; an ended subscription stays ended; a payment failure needs a recorded subscription', () => {
    const current = book([recorded('sub_a', 'SUBSCRIPTION', 100), recorded('sub_b', 'ENTERPRISE', 500)]);
    const news = (id: string, at: number, status = 'active') => ({
      kind: 'state' as const,
      createdAt: at,
      subscription: state(id, 'SUBSCRIPTION', status),
    });
    assert.equal(decideSubscriptionNews(current, 'ENTERPRISE', news('sub_a', 99)).kind, 'stale');
    assert.equal(decideSubscriptionNews(current, 'ENTERPRISE', news('sub_a', 100)).kind, 'apply', 'the same second applies');
    assert.equal(decideSubscriptionNews(current, 'ENTERPRISE', news('sub_a', 200)).kind, 'apply', "sub_b's newer news does not matter");

    const canceled = book([recorded('sub_a', 'SUBSCRIPTION', 100, 'canceled')]);
    assert.equal(decideSubscriptionNews(canceled, 'FREE', news('sub_a', 100)).kind, 'stale');
    assert.equal(decideSubscriptionNews(canceled, 'FREE', news('sub_a', 900)).kind, 'stale');

    assert.equal(
      decideSubscriptionNews(current, 'ENTERPRISE', { kind: 'payment_failed', createdAt: 900, subscriptionId: 'sub_zz' }).kind,
      'stale',
    );
    const failed = applied(
      decideSubscriptionNews(current, 'ENTERPRISE', { kind: 'payment_failed', createdAt: 600, subscriptionId: 'sub_b' }),
    );
    assert.equal(failed.book.subscriptions.sub_b?.status, 'past_due');
    assert.equal(failed.book.subscriptions.sub_b?.firstEventAt, 500);
    assert.equal(failed.planType, 'ENTERPRISE', 'past_due keeps the plan while the provider retries');
  });

  it('never takes the organization below a plan it has apart from subscriptions (created with, or set by an admin)', () => {
    // Created ENTERPRISE: a SUBSCRIPTION subscription neither lowers it nor, when it ends, drops it to FREE.
    const started = applied(
      decideSubscriptionNews(book([], 'FREE', 0), 'ENTERPRISE', {
        kind: 'state',
        createdAt: 100,
        subscription: state('sub_a', 'SUBSCRIPTION'),
      }),
    );
    assert.equal(started.book.basePlan, 'ENTERPRISE');
    assert.equal(started.planType, 'ENTERPRISE');
    const ended = applied(
      decideSubscriptionNews(started.book, 'ENTERPRISE', {
        kind: 'state',
        createdAt: 200,
        subscription: state('sub_a', 'SUBSCRIPTION', 'canceled'),
      }),
    );
    assert.equal(ended.planType, 'ENTERPRISE');

    // Subscribed from FREE, then an admin set ENTERPRISE: the subscription ending keeps ENTERPRISE.
    const subscribed = book([recorded('sub_b', 'SUBSCRIPTION', 100)], 'FREE');
    const afterAdmin = applied(
      decideSubscriptionNews(subscribed, 'ENTERPRISE', {
        kind: 'state',
        createdAt: 200,
        subscription: state('sub_b', 'SUBSCRIPTION', 'canceled'),
      }),
    );
    assert.equal(afterAdmin.planType, 'ENTERPRISE');
    assert.equal(afterAdmin.book.basePlan, 'ENTERPRISE');

    // Without an admin change, the plan is what subscriptions give: back to FREE when they end.
    const plain = applied(
      decideSubscriptionNews(subscribed, 'SUBSCRIPTION', {
        kind: 'state',
        createdAt: 200,
        subscription: state('sub_b', 'SUBSCRIPTION', 'canceled'),
      }),
    );
    assert.equal(plain.planType, 'FREE');
  });

  it('reads accounts stored before the book existed: their one subscription, base FREE, version 0', () => {
    const legacy = state('sub_legacy', 'SUBSCRIPTION');
    assert.deepEqual(
      subscriptionBookOf({ creditsRemaining: 0, creditsUsed: 0, totalSpentCents: 0, subscription: legacy, subscriptionEventAt: 42 }),
      {
        subscriptions: { sub_legacy: { ...legacy, eventAt: 42, firstEventAt: 42 } },
        basePlan: 'FREE',
        version: 0,
      },
    );
    assert.deepEqual(subscriptionBookOf({ creditsRemaining: 0, creditsUsed: 0, totalSpentCents: 0 }), {
      subscriptions: {},
      basePlan: 'FREE',
      version: 0,
    });
    // A legacy subscribed organization keeps following its subscription.
    const decision = applied(
      decideSubscriptionNews(
        subscriptionBookOf({ creditsRemaining: 0, creditsUsed: 0, totalSpentCents: 0, subscription: legacy, subscriptionEventAt: 42 }),
        'SUBSCRIPTION',
        { kind: 'state', createdAt: 50, subscription: { ...legacy, status: 'canceled' } },
      ),
    );
    assert.equal(decision.planType, 'FREE');
  });
});
