/**
 * The local payment provider's own records (what Stripe keeps on its side: customers, checkout
 * and portal sessions, subscriptions) in the single table, so they outlive a restart of
 * `npm start` as the rest of the local state under .local/ does. Keys: `LOCALPAY#<id>` with SK
 * `CUSTOMER`, `CHECKOUT`, `PORTAL` or `SUBSCRIPTION` (the ids' prefixes differ, too).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRequest, SubscriptionState } from '../model';
import { isConditionFailure, transactWrite, withoutKeys, type Table } from '../../platform/table';

export interface LocalCheckout {
  id: string;
  request: CheckoutRequest;
  status: 'open' | 'complete' | 'canceled';
  /** Millions of credits bought (payment mode), once complete. */
  millions?: number;
}

export interface LocalPortal {
  customerId: string;
  returnUrl: string;
}

export interface LocalSubscription extends SubscriptionState {
  customerId: string;
  priceId: string;
  /** Epoch seconds. */
  createdAt: number;
}

interface LocalCustomer {
  customerId: string;
  organizationId: string;
  /** Its subscription that has not ended, if any: at most one, as Stripe's one-subscription setting keeps it. */
  liveSubscriptionId?: string;
}

const keys = {
  customer: (id: string) => ({ PK: `LOCALPAY#${id}`, SK: 'CUSTOMER' }),
  checkout: (id: string) => ({ PK: `LOCALPAY#${id}`, SK: 'CHECKOUT' }),
  portal: (id: string) => ({ PK: `LOCALPAY#${id}`, SK: 'PORTAL' }),
  subscription: (id: string) => ({ PK: `LOCALPAY#${id}`, SK: 'SUBSCRIPTION' }),
} as const;

export class LocalPaymentStore {
  constructor(private readonly table: Table) {}

  async saveCustomer(customerId: string, organizationId: string): Promise<void> {
    // An update, not a put: the same customer again keeps its live subscription.
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.customer(customerId),
        UpdateExpression: 'SET customerId = :customer, organizationId = :organization',
        ExpressionAttributeValues: { ':customer': customerId, ':organization': organizationId },
      }),
    );
  }

  customer(customerId: string): Promise<LocalCustomer | undefined> {
    return this.get(keys.customer(customerId));
  }

  async saveCheckout(checkout: LocalCheckout): Promise<void> {
    await this.put({ ...keys.checkout(checkout.id), ...checkout });
  }

  checkout(id: string): Promise<LocalCheckout | undefined> {
    return this.get(keys.checkout(id));
  }

  async savePortal(id: string, portal: LocalPortal): Promise<void> {
    await this.put({ ...keys.portal(id), ...portal });
  }

  portal(id: string): Promise<LocalPortal | undefined> {
    return this.get(keys.portal(id));
  }

  subscription(id: string): Promise<LocalSubscription | undefined> {
    return this.get(keys.subscription(id));
  }

  /** Closes an open checkout (paid for credits, or cancelled); false when it was not open. */
  async closeCheckout(id: string, close: { status: 'complete' | 'canceled'; millions?: number }): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.checkout(id),
          UpdateExpression: close.millions === undefined ? 'SET #status = :status' : 'SET #status = :status, millions = :millions',
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': close.status,
            ':open': 'open',
            ...(close.millions !== undefined && { ':millions': close.millions }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Completes an open subscription checkout with a new subscription, all or nothing: refused
   * while the checkout is not open, or while its customer has a live subscription.
   */
  async completeWithSubscription(
    checkoutId: string,
    organizationId: string,
    subscription: LocalSubscription,
  ): Promise<'started' | 'not_open' | 'already_subscribed'> {
    const failed = await transactWrite(this.table, [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.checkout(checkoutId),
          UpdateExpression: 'SET #status = :complete',
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':complete': 'complete', ':open': 'open' },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: keys.customer(subscription.customerId),
          // Also creates the customer's record if it predates this store.
          UpdateExpression: 'SET customerId = :customer, organizationId = :organization, liveSubscriptionId = :subscription',
          ConditionExpression: 'attribute_not_exists(liveSubscriptionId)',
          ExpressionAttributeValues: {
            ':customer': subscription.customerId,
            ':organization': organizationId,
            ':subscription': subscription.id,
          },
        },
      },
      { Put: { TableName: this.table.name, Item: { ...keys.subscription(subscription.id), ...subscription } } },
    ]);
    if (!failed.length) return 'started';
    return failed.includes(0) ? 'not_open' : 'already_subscribed';
  }

  /** Stores a subscription's new state; an ended one is no longer its customer's live one. */
  async saveSubscription(subscription: LocalSubscription, ended: boolean): Promise<void> {
    await this.put({ ...keys.subscription(subscription.id), ...subscription });
    if (!ended) return;
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.customer(subscription.customerId),
          UpdateExpression: 'REMOVE liveSubscriptionId',
          ConditionExpression: 'liveSubscriptionId = :subscription',
          ExpressionAttributeValues: { ':subscription': subscription.id },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error; // it was not the live one: nothing to clear
    }
  }

  private async put(item: Record<string, unknown>): Promise<void> {
    await this.table.client.send(new PutCommand({ TableName: this.table.name, Item: item }));
  }

  private async get<T>(key: Record<string, string>): Promise<T | undefined> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
    return Item ? (withoutKeys(Item) as T) : undefined;
  }
}
