/**
 * The payment provider of the local runtime (no Stripe key): its "hosted" checkout and portal
 * pages are served by the local server (infra/local/payment-pages.ts). Completing a page produces
 * the Stripe event Stripe would send, signed with this provider's webhook secret by the Stripe
 * SDK, for the pages to post to the real webhook endpoint: local purchases go through exactly the
 * code real Stripe events go through. What Stripe would remember (customers, sessions,
 * subscriptions) is kept in the table (local-store.ts), so it outlives a restart.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { CheckoutRequest, PaymentProvider, SubscriptionState } from '../model';
import { creditPriceCents } from '../money';
import type { Clock } from '../../platform/clock';
import type { LocalCheckout, LocalPaymentStore, LocalPortal, LocalSubscription } from './local-store';
import type { CheckoutLookups } from './stripe-events';

export type { LocalCheckout } from './local-store';

/** Where the local runtime serves the provider's pages. */
export const LOCAL_PAYMENT_PAGES = '/local-payments';

/** A Stripe event body and its Stripe-Signature header, ready to post to the webhook endpoint. */
export interface SignedDelivery {
  payload: string;
  signature: string;
}

/** Paying a checkout: the event to deliver, or why the page refuses (nothing changed). */
export type CheckoutCompletion = { completed: SignedDelivery } | { refused: 'not_open' | 'already_subscribed' | 'invalid_quantity' };

export class LocalPaymentProvider implements PaymentProvider, CheckoutLookups {
  /** Signs this process's events; the webhook endpoint verifies with it when no Stripe key is set. */
  readonly webhookSecret = `whsec_local_${randomBytes(24).toString('base64url')}`;
  private store?: LocalPaymentStore;

  /** `store` is opened on first use: a runtime that never takes a local payment needs no table. */
  constructor(
    private readonly clock: Clock,
    private readonly openStore: () => LocalPaymentStore,
  ) {}

  private get records(): LocalPaymentStore {
    return (this.store ??= this.openStore());
  }

  async createCustomer(organization: { id: string }): Promise<string> {
    // The same organization always gets the same customer, as Stripe's idempotency key ensures.
    const customerId = `cus_local_${createHash('sha256').update(organization.id).digest('hex').slice(0, 16)}`;
    await this.records.saveCustomer(customerId, organization.id);
    return customerId;
  }

  async createCheckout(request: CheckoutRequest): Promise<string> {
    const id = `cs_local_${randomUUID().replaceAll('-', '')}`;
    await this.records.saveCheckout({ id, request, status: 'open' });
    return `${LOCAL_PAYMENT_PAGES}/checkout/${id}`;
  }

  async createPortal(portal: LocalPortal): Promise<string> {
    const id = `bps_local_${randomUUID().replaceAll('-', '')}`;
    await this.records.savePortal(id, portal);
    return `${LOCAL_PAYMENT_PAGES}/portal/${id}`;
  }

  async subscription(subscriptionId: string): Promise<SubscriptionState | undefined> {
    const found = await this.records.subscription(subscriptionId);
    return found && stateOf(found);
  }

  async creditMillions(checkoutSessionId: string): Promise<number> {
    return (await this.records.checkout(checkoutSessionId))?.millions ?? 0;
  }

  // --- what the pages do ---------------------------------------------------------------------------

  checkout(id: string): Promise<LocalCheckout | undefined> {
    return this.records.checkout(id);
  }

  /** A portal session, with its customer's live subscription (there is at most one). */
  async portal(id: string): Promise<(LocalPortal & { subscription?: SubscriptionState }) | undefined> {
    const portal = await this.records.portal(id);
    if (!portal) return undefined;
    const liveId = (await this.records.customer(portal.customerId))?.liveSubscriptionId;
    const subscription = liveId ? await this.records.subscription(liveId) : undefined;
    return { ...portal, ...(subscription && { subscription: stateOf(subscription) }) };
  }

  /**
   * Pays an open checkout. `millions` is the credits quantity chosen on the page (payment mode),
   * taken only within the session's limits, as Stripe's adjustable quantity would. A subscription
   * checkout is refused while the customer has a live subscription: what Stripe does with its
   * "limit customers to one subscription" setting on (operator's guide, The payment provider).
   */
  async completeCheckout(id: string, millions?: number): Promise<CheckoutCompletion> {
    const checkout = await this.records.checkout(id);
    if (!checkout || checkout.status !== 'open') return { refused: 'not_open' };
    const { request } = checkout;
    if (request.mode === 'payment') {
      const quantity = millions ?? request.minimumQuantity;
      if (!Number.isSafeInteger(quantity) || quantity < request.minimumQuantity || quantity > request.maximumQuantity) {
        return { refused: 'invalid_quantity' };
      }
      if (!(await this.records.closeCheckout(id, { status: 'complete', millions: quantity }))) return { refused: 'not_open' };
      return { completed: this.sign('checkout.session.completed', completedSession(checkout, null, creditPriceCents(quantity))) };
    }
    const subscription = this.newSubscription(request.customerId, request.priceId, request.planType);
    const started = await this.records.completeWithSubscription(id, request.organizationId, subscription);
    if (started !== 'started') return { refused: started };
    return { completed: this.sign('checkout.session.completed', completedSession(checkout, subscription.id, null)) };
  }

  async cancelCheckout(id: string): Promise<LocalCheckout | undefined> {
    const checkout = await this.records.checkout(id);
    if (checkout?.status === 'open') await this.records.closeCheckout(id, { status: 'canceled' });
    return checkout;
  }

  /** Portal actions: cancel at period end, undo that, or end the subscription now. */
  async changeSubscription(subscriptionId: string, change: 'cancel_at_period_end' | 'resume' | 'cancel_now'): Promise<SignedDelivery> {
    const subscription = await this.records.subscription(subscriptionId);
    if (!subscription) throw new Error('No such subscription.');
    const changed: LocalSubscription =
      change === 'cancel_now'
        ? { ...subscription, status: 'canceled' }
        : { ...subscription, cancelAtPeriodEnd: change === 'cancel_at_period_end' };
    await this.records.saveSubscription(changed, change === 'cancel_now');
    return this.sign(
      change === 'cancel_now' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      this.stripeSubscription(changed),
    );
  }

  private newSubscription(customerId: string, priceId: string, planType: SubscriptionState['planType']): LocalSubscription {
    const start = this.clock.now();
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    return {
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

/** The checkout session as Stripe's completion event carries it (the fields the event reader uses). */
function completedSession(checkout: LocalCheckout, subscriptionId: string | null, amountTotal: number | null) {
  const { request } = checkout;
  return {
    id: checkout.id,
    object: 'checkout.session',
    mode: request.mode,
    customer: request.customerId,
    client_reference_id: request.organizationId,
    payment_status: 'paid',
    status: 'complete',
    amount_total: amountTotal,
    subscription: subscriptionId,
    metadata: { organizationId: request.organizationId },
  };
}

function stateOf(subscription: LocalSubscription): SubscriptionState {
  const { customerId: _customer, priceId: _price, createdAt: _created, ...state } = subscription;
  return state;
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
