/**
 * The payment provider of the local runtime (no Stripe key): its "hosted" checkout and portal
 * pages are served by the local server (infra/local/payment-pages.ts). Completing a page produces
 * the Stripe event Stripe would send, signed with this provider's webhook secret by the Stripe
 * SDK, for the pages to post to the real webhook endpoint: local purchases go through exactly the
 * code real Stripe events go through.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutRequest, PaymentProvider, SubscriptionState } from '../model';
import { creditPriceCents } from '../money';
import type { Clock } from '../../platform/clock';
import type { CheckoutLookups } from './stripe-events';

/** Where the local runtime serves the provider's pages. */
export const LOCAL_PAYMENT_PAGES = '/local-payments';

export interface LocalCheckout {
  id: string;
  request: CheckoutRequest;
  status: 'open' | 'complete' | 'canceled';
  /** Millions of credits bought (payment mode), once complete. */
  millions?: number;
}

interface LocalSubscription extends SubscriptionState {
  customerId: string;
  priceId: string;
  createdAt: number;
}

/** A Stripe event body and its Stripe-Signature header, ready to post to the webhook endpoint. */
export interface SignedDelivery {
  payload: string;
  signature: string;
}

export class LocalPaymentProvider implements PaymentProvider, CheckoutLookups {
  /** Signs this process's events; the webhook endpoint verifies with it when no Stripe key is set. */
  readonly webhookSecret = `whsec_local_${randomBytes(24).toString('base64url')}`;
  private readonly checkouts = new Map<string, LocalCheckout>();
  private readonly portals = new Map<string, { customerId: string; returnUrl: string }>();
  private readonly subscriptions = new Map<string, LocalSubscription>();

  constructor(private readonly clock: Clock) {}

  async createCustomer(organization: { id: string }): Promise<string> {
    // The same organization always gets the same customer, as Stripe's idempotency key ensures.
    return `cus_local_${createHash('sha256').update(organization.id).digest('hex').slice(0, 16)}`;
  }

  async createCheckout(request: CheckoutRequest): Promise<string> {
    const id = `cs_local_${randomUUID().replaceAll('-', '')}`;
    this.checkouts.set(id, { id, request, status: 'open' });
    return `${LOCAL_PAYMENT_PAGES}/checkout/${id}`;
  }

  async createPortal(portal: { customerId: string; returnUrl: string }): Promise<string> {
    const id = `bps_local_${randomUUID().replaceAll('-', '')}`;
    this.portals.set(id, portal);
    return `${LOCAL_PAYMENT_PAGES}/portal/${id}`;
  }

  async subscription(subscriptionId: string): Promise<SubscriptionState | undefined> {
    const found = this.subscriptions.get(subscriptionId);
    if (!found) return undefined;
    const { customerId: _customer, priceId: _price, createdAt: _created, ...state } = found;
    return state;
  }

  async creditMillions(checkoutSessionId: string): Promise<number> {
    return this.checkouts.get(checkoutSessionId)?.millions ?? 0;
  }

  // --- what the pages do ---------------------------------------------------------------------------

  checkout(id: string): LocalCheckout | undefined {
    return this.checkouts.get(id);
  }

  portal(id: string): { customerId: string; returnUrl: string; subscription?: SubscriptionState } | undefined {
    const portal = this.portals.get(id);
    if (!portal) return undefined;
    const subscription = [...this.subscriptions.values()].find(
      (s) => s.customerId === portal.customerId && s.status !== 'canceled',
    );
    return { ...portal, ...(subscription && { subscription }) };
  }

  /** Pays an open checkout; `millions` is the credits quantity chosen on the page (payment mode). */
  completeCheckout(id: string, millions?: number): SignedDelivery {
    const checkout = this.checkouts.get(id);
    if (!checkout || checkout.status !== 'open') throw new Error('This checkout is not open.');
    const { request } = checkout;
    checkout.status = 'complete';
    let subscriptionId: string | null = null;
    if (request.mode === 'payment') {
      checkout.millions = Math.max(request.minimumQuantity, Math.trunc(millions ?? request.minimumQuantity));
    } else {
      subscriptionId = this.startSubscription(request.customerId, request.priceId, request.planType).id;
    }
    return this.sign('checkout.session.completed', {
      id,
      object: 'checkout.session',
      mode: request.mode,
      customer: request.customerId,
      client_reference_id: request.organizationId,
      payment_status: 'paid',
      status: 'complete',
      amount_total: request.mode === 'payment' ? creditPriceCents(checkout.millions!) : null,
      subscription: subscriptionId,
      metadata: { organizationId: request.organizationId },
    });
  }

  cancelCheckout(id: string): LocalCheckout | undefined {
    const checkout = this.checkouts.get(id);
    if (checkout?.status === 'open') checkout.status = 'canceled';
    return checkout;
  }

  /** Portal actions: cancel at period end, undo that, or end the subscription now. */
  changeSubscription(subscriptionId: string, change: 'cancel_at_period_end' | 'resume' | 'cancel_now'): SignedDelivery {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error('No such subscription.');
    if (change === 'cancel_now') subscription.status = 'canceled';
    else subscription.cancelAtPeriodEnd = change === 'cancel_at_period_end';
    return this.sign(
      change === 'cancel_now' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      this.stripeSubscription(subscription),
    );
  }

  private startSubscription(customerId: string, priceId: string, planType: SubscriptionState['planType']): LocalSubscription {
    const start = this.clock.now();
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    const subscription: LocalSubscription = {
      id: `sub_local_${randomUUID().replaceAll('-', '')}`,
      status: 'active',
      planType,
      currentPeriodStart: start.toISOString(),
      currentPeriodEnd: end.toISOString(),
      cancelAtPeriodEnd: false,
      customerId,
      priceId,
      createdAt: seconds(start),
    };
    this.subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /** The subscription as Stripe's API shows it (the fields the event reader uses). */
  private stripeSubscription(subscription: LocalSubscription) {
    return {
      id: subscription.id,
      object: 'subscription',
      customer: subscription.customerId,
      status: subscription.status,
      cancel_at_period_end: subscription.cancelAtPeriodEnd,
      created: subscription.createdAt,
      metadata: { planType: subscription.planType },
      items: {
        object: 'list',
        data: [
          {
            price: { id: subscription.priceId },
            current_period_start: seconds(new Date(subscription.currentPeriodStart)),
            current_period_end: seconds(new Date(subscription.currentPeriodEnd)),
          },
        ],
      },
    };
  }

  private sign(type: string, object: Record<string, unknown>): SignedDelivery {
    const created = seconds(this.clock.now());
    const payload = JSON.stringify({
      id: `evt_local_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type,
      created,
      livemode: false,
      data: { object },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret, timestamp: created });
    return { payload, signature };
  }
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
