/**
 * Stripe webhook deliveries → billing events. The signature is checked by the SDK's own verifier
 * on the raw body, against the injected clock; the payload is then read into the provider-neutral
 * BillingEvent the billing domain applies. The local provider signs its events the same way, so
 * both modes go through this one reader.
 */
import Stripe from 'stripe';
import { planOfPrice, type ProviderPriceIds } from '../catalogue';
import type { BillingEvent, PaymentEventReader, SubscriptionState } from '../model';
import { creditPriceCents } from '../money';
import { invalidInput } from '../../platform/errors';
import { isPlanType } from '../../organizations';

/** What the reader asks the provider about when a payload does not carry it. */
export interface CheckoutLookups {
  subscription(subscriptionId: string): Promise<SubscriptionState | undefined>;
  /** Millions of credits bought in a completed credits checkout (the quantity is chosen on the page). */
  creditMillions(checkoutSessionId: string): Promise<number>;
}

/** Seconds a signed delivery stays acceptable (Stripe's default). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export class StripeEventReader implements PaymentEventReader {
  constructor(
    private readonly webhookSecret: () => Promise<string>,
    private readonly priceIds: ProviderPriceIds,
    private readonly lookups: CheckoutLookups,
  ) {}

  async read(rawBody: string, signature: string | undefined, receivedAt: Date) {
    const secret = await this.webhookSecret();
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        secret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        receivedAt.getTime(),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw invalidInput('The Stripe-Signature header does not verify against this body.');
      }
      throw error;
    }
    return this.translate(event);
  }

  private async translate(event: Stripe.Event): Promise<BillingEvent | { ignored: string }> {
    const base = { id: event.id, createdAt: event.created };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const customerId = idOf(session.customer);
        if (!customerId || session.payment_status === 'unpaid') return { ignored: `${event.type} (not paid)` };
        const organizationId = session.client_reference_id ?? session.metadata?.organizationId ?? undefined;
        if (session.mode === 'payment') {
          const millions = await this.lookups.creditMillions(session.id);
          if (millions <= 0) return { ignored: `${event.type} (no credits bought)` };
          const amountPaidCents = session.amount_total ?? creditPriceCents(millions);
          return { ...base, kind: 'credits_purchased', customerId, organizationId, millions, amountPaidCents };
        }
        const subscriptionId = idOf(session.subscription);
        if (session.mode !== 'subscription' || !subscriptionId) return { ignored: `${event.type} (${session.mode})` };
        // The session names the subscription only; its state (plan, period) is the provider's.
        const subscription = await this.lookups.subscription(subscriptionId);
        if (!subscription) return { ignored: `${event.type} (unknown subscription)` };
        return { ...base, kind: 'subscription_changed', customerId, organizationId, subscription };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        return {
          ...base,
          kind: 'subscription_changed',
          customerId: idOf(subscription.customer)!,
          subscription: subscriptionState(subscription, this.priceIds),
        };
      }
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
        const customerId = idOf(invoice.customer);
        if (!subscriptionId || !customerId) return { ignored: `${event.type} (not a subscription invoice)` };
        return { ...base, kind: 'payment_failed', customerId, subscriptionId };
      }
      default:
        return { ignored: event.type };
    }
  }
}

/** Stripe's subscription object as the service's subscription state. */
export function subscriptionState(subscription: Stripe.Subscription, priceIds: ProviderPriceIds): SubscriptionState {
  const item = subscription.items.data[0];
  const metadataPlan = subscription.metadata?.planType;
  const planType =
    (item && planOfPrice(priceIds, item.price.id)) ?? (metadataPlan && isPlanType(metadataPlan) ? metadataPlan : 'SUBSCRIPTION');
  const at = (seconds: number | undefined) => new Date((seconds ?? subscription.created) * 1000).toISOString();
  return {
    id: subscription.id,
    status: subscription.status,
    planType,
    currentPeriodStart: at(item?.current_period_start),
    currentPeriodEnd: at(item?.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  return typeof value === 'string' ? value : (value?.id ?? undefined);
}
