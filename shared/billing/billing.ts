/**
 * Billing use cases over the ports: hosted checkout, credit purchase and portal pages, the live
 * subscription, and applying the payment provider's events (the only writer of paid state).
 */
import { invalidInput } from '../platform/errors';
import { type Organization } from '../organizations';
import { CREDITS } from './offers';
import { planOfPrice, type ProviderPriceIds } from './catalogue';
import type { BillingEvent, BillingLedger, EventOutcome, PaymentProvider, SubscriptionState } from './model';
import { creditsForMillions, planWhileSubscribed } from './quota';

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

/** A hosted checkout page subscribing to the plan of `priceId`. */
export async function startSubscriptionCheckout(ports: BillingPorts, request: HostedPageRequest): Promise<string> {
  const planType = planOfPrice(ports.priceIds, request.priceId);
  if (!planType) throw invalidInput(`priceId "${request.priceId}" is not the providerPriceId of a paid plan.`);
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

/** Applies one provider event exactly once; older subscription news never overwrites newer. */
export async function applyBillingEvent(ledger: BillingLedger, event: BillingEvent): Promise<EventOutcome> {
  const organizationId = event.organizationId ?? (await ledger.organizationOfCustomer(event.customerId));
  if (!organizationId) return 'unknown_customer';
  switch (event.kind) {
    case 'subscription_changed':
      return ledger.recordSubscription(organizationId, {
        eventId: event.id,
        createdAt: event.createdAt,
        subscription: event.subscription,
        planType: planWhileSubscribed(event.subscription),
      });
    case 'credits_purchased':
      return ledger.recordCreditPurchase(organizationId, {
        eventId: event.id,
        credits: creditsForMillions(event.millions),
        amountPaidCents: event.amountPaidCents,
      });
    case 'payment_failed':
      return ledger.recordPaymentFailure(organizationId, {
        eventId: event.id,
        createdAt: event.createdAt,
        subscriptionId: event.subscriptionId,
      });
  }
}
