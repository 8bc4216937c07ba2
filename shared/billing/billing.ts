/**
 * Billing use cases over the ports: hosted checkout, credit purchase and portal pages, the live
 * subscription, and applying the payment provider's events (the only writer of paid state).
 */
import { conflict, invalidInput } from '../platform/errors';
import { log } from '../platform/logging';
import { type Organization } from '../organizations';
import { CREDITS } from './offers';
import { planOfPrice, type ProviderPriceIds } from './catalogue';
import { creditsForMillions, paidCents } from './credit-purchases';
import type { BillingEvent, BillingLedger, EventOutcome, PaymentProvider, SubscriptionState } from './model';
import { decideSubscriptionNews, hasEnded, isLive, subscriptionBookOf, type SubscriptionNews } from './subscriptions';

export interface BillingPorts {
  ledger: BillingLedger;
  provider: PaymentProvider;
  priceIds: ProviderPriceIds;
}

interface HostedPageRequest {
  organization: Pick<Organization, 'id' | 'name'>;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

/** The organization's one provider customer, created the first time it is needed. */
export async function customerOf(ports: BillingPorts, organization: Pick<Organization, 'id' | 'name'>): Promise<string> {
  const { customerId } = await ports.ledger.account(organization.id);
  if (customerId) return customerId;
  // The provider returns the same customer for the same organization, and the ledger keeps the
  // first one stored, so two first requests at once still end with one customer.
  return ports.ledger.attachCustomer(organization.id, await ports.provider.createCustomer(organization));
}

/**
 * A hosted checkout page subscribing to the plan of `priceId`. Refused (conflict) while the
 * organization has a live subscription: a second one would bill beside the first, and changing
 * plans is the portal's job (Stripe's guidance: limit customers to one subscription).
 */
export async function startSubscriptionCheckout(ports: BillingPorts, request: HostedPageRequest): Promise<string> {
  const planType = planOfPrice(ports.priceIds, request.priceId);
  if (!planType) throw invalidInput(`priceId "${request.priceId}" is not the providerPriceId of a paid plan.`);
  const live = await liveSubscription(ports, request.organization.id);
  if (live) {
    throw conflict(
      `The organization already has a live ${live.planType} subscription (${live.id}). To change plans or cancel, ` +
        'open the billing portal (POST /api/v1/billing/portal); a second subscription would be billed beside the first.',
    );
  }
  return ports.provider.createCheckout({
    mode: 'subscription',
    planType,
    organizationId: request.organization.id,
    customerId: await customerOf(ports, request.organization),
    priceId: request.priceId,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  });
}

/** A hosted checkout page buying credits by the million (at least the minimum purchase). */
export async function startCreditPurchase(ports: BillingPorts, request: HostedPageRequest): Promise<string> {
  if (request.priceId !== ports.priceIds.creditsPrice) {
    throw invalidInput(`priceId "${request.priceId}" is not the providerPriceId of the credits product.`);
  }
  return ports.provider.createCheckout({
    mode: 'payment',
    minimumQuantity: CREDITS.minimumMillions,
    maximumQuantity: CREDITS.maximumMillions,
    organizationId: request.organization.id,
    customerId: await customerOf(ports, request.organization),
    priceId: request.priceId,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  });
}

export async function openPortal(
  ports: BillingPorts,
  request: { organization: Pick<Organization, 'id' | 'name'>; returnUrl: string },
): Promise<string> {
  return ports.provider.createPortal({ customerId: await customerOf(ports, request.organization), returnUrl: request.returnUrl });
}

/** The provider's live state of the organization's subscription; null when it never subscribed. */
export async function currentSubscription(ports: BillingPorts, organizationId: string): Promise<SubscriptionState | null> {
  const { subscription } = await ports.ledger.account(organizationId);
  if (!subscription) return null;
  return (await ports.provider.subscription(subscription.id)) ?? subscription;
}

/**
 * A live subscription of the organization, by the provider's live state (an event may not have
 * arrived yet), else by the last state its events reported. Ended ones never come back.
 */
async function liveSubscription(ports: BillingPorts, organizationId: string): Promise<SubscriptionState | undefined> {
  const { subscriptions } = subscriptionBookOf(await ports.ledger.account(organizationId));
  for (const recorded of Object.values(subscriptions).filter((subscription) => !hasEnded(subscription))) {
    const state = (await ports.provider.subscription(recorded.id)) ?? recorded;
    if (isLive(state)) return state;
  }
  return undefined;
}

/** Times a subscription change is decided again after the state it was decided from changed. */
const SUBSCRIPTION_DECISION_ATTEMPTS = 10;

/** Applies one provider event exactly once; older news of a subscription never overwrites newer. */
export async function applyBillingEvent(ledger: BillingLedger, event: BillingEvent): Promise<EventOutcome> {
  const organizationId = event.organizationId ?? (await ledger.organizationOfCustomer(event.customerId));
  if (!organizationId) return 'unknown_customer';
  switch (event.kind) {
    case 'subscription_changed':
      return applySubscriptionNews(ledger, organizationId, event.id, {
        kind: 'state',
        createdAt: event.createdAt,
        subscription: event.subscription,
      });
    case 'payment_failed':
      return applySubscriptionNews(ledger, organizationId, event.id, {
        kind: 'payment_failed',
        createdAt: event.createdAt,
        subscriptionId: event.subscriptionId,
      });
    case 'credits_purchased':
      return ledger.recordCreditPurchase(organizationId, {
        eventId: event.id,
        credits: creditsForMillions(event.millions),
        amountPaidCents: paidCents(event.amountPaidCents),
      });
  }
}

/** Read, decide (subscriptions.ts), write only if nothing changed meanwhile; else decide again. */
async function applySubscriptionNews(
  ledger: BillingLedger,
  organizationId: string,
  eventId: string,
  news: SubscriptionNews,
): Promise<EventOutcome> {
  for (let attempt = 1; ; attempt++) {
    const { book, organizationPlan } = await ledger.subscriptions(organizationId);
    if (!organizationPlan) return 'unknown_customer';
    const decision = decideSubscriptionNews(book, organizationPlan, news);
    if (decision.kind === 'stale') return ledger.markEventProcessed(organizationId, eventId);
    const outcome = await ledger.recordSubscriptions(organizationId, {
      eventId,
      read: { version: book.version, organizationPlan },
      book: decision.book,
      shown: decision.shown,
      planType: decision.planType,
    });
    if (outcome === 'applied' && decision.liveSubscriptionIds.length > 1) {
      // Both bill at the provider: a person must cancel (and refund) the one not meant to be kept.
      log('error', 'organization has more than one live subscription', {
        organizationId,
        eventId,
        liveSubscriptionIds: decision.liveSubscriptionIds,
        planType: decision.planType,
      });
    }
    if (outcome !== 'changed_meanwhile') return outcome;
    if (attempt >= SUBSCRIPTION_DECISION_ATTEMPTS)
      throw new Error(`The subscriptions of ${organizationId} kept changing while event ${eventId} was applied.`);
  }
}
