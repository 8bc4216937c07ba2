/**
 * The rules of an organization's subscriptions: which are live, which one it is on, what plan they
 * give it, and how a provider event changes them. Pure.
 *
 * An organization has at most one live subscription: a second checkout is refused while one is
 * live (billing.ts), as Stripe's "limit customers to one subscription" setting does on its own
 * page. Two can still exist at Stripe (two checkout pages opened before either was paid, or one
 * made in the dashboard), and Stripe then bills both. Stripe's guidance is to grant access from
 * the subscriptions it reports and to fix duplicates by cancelling one (with a refund), which is a
 * person's decision. So an event never replaces or drops a subscription: every one is recorded,
 * the plan is the best any live one grants, the one that grants it is shown, and the caller logs
 * an error while more than one is live. When one ends, the organization falls back to the other.
 */
import { PLAN_TYPES, type PlanType } from '../organizations';
import type { BillingAccount, RecordedSubscription, SubscriptionBook, SubscriptionState } from './model';
import { planWhileSubscribed } from './quota';

/**
 * Statuses in which a subscription still exists and can bill: Stripe's "active" statuses for
 * limiting customers to one subscription (active, past_due, unpaid, paused), and trialing.
 */
const LIVE_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];
/** Statuses Stripe never moves a subscription out of. */
const ENDED_STATUSES: readonly string[] = ['canceled', 'incomplete_expired'];

export function isLive(subscription: Pick<SubscriptionState, 'status'>): boolean {
  return LIVE_STATUSES.includes(subscription.status);
}

export function hasEnded(subscription: Pick<SubscriptionState, 'status'>): boolean {
  return ENDED_STATUSES.includes(subscription.status);
}

/** A subscription as billing recorded it from the provider's events. */
/** What a provider event says about one subscription. */
export type SubscriptionNews =
  | { kind: 'state'; createdAt: number; subscription: SubscriptionState }
  | { kind: 'payment_failed'; createdAt: number; subscriptionId: string };

export type SubscriptionDecision =
  | { kind: 'stale' }
  | {
      kind: 'apply';
      book: SubscriptionBook;
      /** The subscription the organization is on, shown by GET /billing/subscription. */
      shown: SubscriptionState;
      /** The organization's plan from now on. */
      planType: PlanType;
      /** More than one means the organization pays twice: someone must cancel (and refund) one. */
      liveSubscriptionIds: string[];
    };

/** The book stored in the account; accounts written before it existed held one subscription. */
export function subscriptionBookOf(account: BillingAccount): SubscriptionBook {
  const legacy = account.subscription;
  const legacyAt = account.subscriptionEventAt ?? 0;
  return {
    subscriptions: account.subscriptions ?? (legacy ? { [legacy.id]: { ...legacy, eventAt: legacyAt, firstEventAt: legacyAt } } : {}),
    basePlan: account.basePlan ?? 'FREE',
    version: account.subscriptionsVersion ?? 0,
  };
}

const rank = (plan: PlanType) => PLAN_TYPES.indexOf(plan);
const better = (a: PlanType, b: PlanType): PlanType => (rank(a) >= rank(b) ? a : b);

/** The best plan the subscriptions grant; FREE when none grants one. */
export function planFromSubscriptions(subscriptions: Record<string, RecordedSubscription>): PlanType {
  return Object.values(subscriptions).map(planWhileSubscribed).reduce(better, 'FREE');
}

/** Live subscriptions, oldest first. */
export function liveSubscriptions(subscriptions: Record<string, RecordedSubscription>): RecordedSubscription[] {
  return Object.values(subscriptions)
    .filter(isLive)
    .sort((a, b) => a.firstEventAt - b.firstEventAt || a.id.localeCompare(b.id));
}

/**
 * The subscription the organization is on: of the live ones, the one granting the best plan (the
 * oldest on a tie); with none live, the one that changed last.
 */
export function shownSubscription(subscriptions: Record<string, RecordedSubscription>): RecordedSubscription | undefined {
  const live = liveSubscriptions(subscriptions);
  if (live.length > 0)
    return live.reduce((shown, next) => (rank(planWhileSubscribed(next)) > rank(planWhileSubscribed(shown)) ? next : shown));
  return Object.values(subscriptions).sort((a, b) => b.eventAt - a.eventAt || a.id.localeCompare(b.id))[0];
}

/**
 * How one event changes the book and the organization's plan (`organizationPlan`: its plan now).
 * Stale, changing nothing, when the subscription's stored state comes from a newer event or has
 * ended (Stripe never revives an ended subscription), or when a payment failure names a
 * subscription never recorded. Events of different subscriptions never make each other stale.
 */
export function decideSubscriptionNews(book: SubscriptionBook, organizationPlan: PlanType, news: SubscriptionNews): SubscriptionDecision {
  const id = news.kind === 'state' ? news.subscription.id : news.subscriptionId;
  const stored = book.subscriptions[id];
  if (stored && (stored.eventAt > news.createdAt || hasEnded(stored))) return { kind: 'stale' };
  if (news.kind === 'payment_failed' && !stored) return { kind: 'stale' };
  const state: SubscriptionState = news.kind === 'state' ? news.subscription : { ...withoutEventTimes(stored!), status: 'past_due' };

  // A plan that is neither the base nor what subscriptions made of it was set by an admin since
  // the last event: it becomes the base, so a subscription ending never takes it away.
  const planBefore = better(book.basePlan, planFromSubscriptions(book.subscriptions));
  const basePlan = organizationPlan === planBefore ? book.basePlan : organizationPlan;
  const subscriptions = {
    ...book.subscriptions,
    [id]: { ...state, eventAt: news.createdAt, firstEventAt: stored?.firstEventAt ?? news.createdAt },
  };
  return {
    kind: 'apply',
    book: { subscriptions, basePlan, version: book.version + 1 },
    shown: withoutEventTimes(shownSubscription(subscriptions)!),
    planType: better(basePlan, planFromSubscriptions(subscriptions)),
    liveSubscriptionIds: liveSubscriptions(subscriptions).map((subscription) => subscription.id),
  };
}

function withoutEventTimes(recorded: RecordedSubscription): SubscriptionState {
  const { eventAt: _eventAt, firstEventAt: _firstEventAt, ...state } = recorded;
  return state;
}
