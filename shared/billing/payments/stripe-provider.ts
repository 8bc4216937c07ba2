/**
 * The payment provider on Stripe, through the real SDK: one customer per organization, hosted
 * Checkout (subscriptions and credits), the Customer Portal, and live subscription state.
 */
import Stripe from 'stripe';
import type { ProviderPriceIds } from '../catalogue';
import type { CheckoutRequest, PaymentProvider, SubscriptionState } from '../model';
import type { CheckoutLookups } from './stripe-events';
import { subscriptionState } from './stripe-events';

/** Where the SDK sends requests; only tests and stripe-mock change it. */
export interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export function createStripeClient(secretKey: string, address?: StripeApiAddress): Stripe {
  return new Stripe(secretKey, { ...address, maxNetworkRetries: 2, appInfo: { name: 'hotel-mapping-api' } });
}

export class StripePaymentProvider implements PaymentProvider, CheckoutLookups {
  constructor(
    private readonly client: () => Promise<Stripe>,
    private readonly priceIds: ProviderPriceIds,
  ) {}

  async createCustomer(organization: { id: string; name: string }): Promise<string> {
    const stripe = await this.client();
    // The idempotency key makes Stripe answer two concurrent first requests with one customer.
    const customer = await stripe.customers.create(
      { name: organization.name, metadata: { organizationId: organization.id } },
      { idempotencyKey: `customer-for-organization-${organization.id}` },
    );
    return customer.id;
  }

  async createCheckout(checkout: CheckoutRequest): Promise<string> {
    const stripe = await this.client();
    const common = {
      customer: checkout.customerId,
      client_reference_id: checkout.organizationId,
      success_url: checkout.successUrl,
      cancel_url: checkout.cancelUrl,
    };
    const session =
      checkout.mode === 'subscription'
        ? await stripe.checkout.sessions.create({
            ...common,
            mode: 'subscription',
            line_items: [{ price: checkout.priceId, quantity: 1 }],
            metadata: { organizationId: checkout.organizationId, planType: checkout.planType },
            subscription_data: { metadata: { organizationId: checkout.organizationId, planType: checkout.planType } },
          })
        : await stripe.checkout.sessions.create({
            ...common,
            mode: 'payment',
            line_items: [
              {
                price: checkout.priceId,
                quantity: checkout.minimumQuantity,
                adjustable_quantity: { enabled: true, minimum: checkout.minimumQuantity, maximum: checkout.maximumQuantity },
              },
            ],
            metadata: { organizationId: checkout.organizationId, purchase: 'credits' },
          });
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL.');
    return session.url;
  }

  async createPortal(portal: { customerId: string; returnUrl: string }): Promise<string> {
    const stripe = await this.client();
    const session = await stripe.billingPortal.sessions.create({ customer: portal.customerId, return_url: portal.returnUrl });
    return session.url;
  }

  async subscription(subscriptionId: string): Promise<SubscriptionState | undefined> {
    const stripe = await this.client();
    try {
      return subscriptionState(await stripe.subscriptions.retrieve(subscriptionId), this.priceIds);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  async creditMillions(checkoutSessionId: string): Promise<number> {
    const stripe = await this.client();
    const lines = await stripe.checkout.sessions.listLineItems(checkoutSessionId, { limit: 100 });
    return lines.data
      .filter((line) => line.price?.id === this.priceIds.creditsPrice)
      .reduce((millions, line) => millions + (line.quantity ?? 0), 0);
  }
}
