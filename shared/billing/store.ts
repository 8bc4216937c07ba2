/**
 * Billing and usage in the single table (keys in table.ts). Every write that spends or grants is
 * conditional and, where several items change together, one transaction: concurrent jobs cannot
 * overspend, and a redelivered or out-of-order payment event cannot apply twice or go backwards.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  BillingAccount,
  BillingLedger,
  DailyUsage,
  EventOutcome,
  MonthlyUsage,
  Reservation,
  ReserveOutcome,
  Settlement,
  Charge,
  ChargeOutcome,
  SubscriptionState,
  SupplierUsage,
  UsageLedger,
  SubscriptionBook,
} from './model';
import { CHARGE_RECEIPT_HOURS } from './model';
import { systemClock, type Clock } from '../platform/clock';
import { invalidInput } from '../platform/errors';
import { purchaseCeilings } from './credit-purchases';
import { subscriptionBookOf } from './subscriptions';
import { type PlanType, organizationKey } from '../organizations';
import {
  organizationPartition,
  isConditionFailure,
  queryAll,
  TABLE_KEYS,
  transactWrite,
  withoutKeys,
  type Table,
  type TransactItem,
} from '../platform/table';

/** Keys of this store's items in the single table. */
const keys = {
  billingAccount: (organizationId: string) => ({ PK: organizationPartition(organizationId), SK: 'BILLING' }),
  usageDay: (organizationId: string, day: string) => ({ PK: organizationPartition(organizationId), SK: `USAGE_DAY#${day}` }),
  supplierUsage: (organizationId: string, month: string, supplierId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `USAGE_SUPPLIER#${month}#${supplierId}`,
  }),
  supplierUsagePrefix: (month: string) => `USAGE_SUPPLIER#${month}#`,
  reservation: (organizationId: string, jobId: string) => ({ PK: organizationPartition(organizationId), SK: `RESERVATION#${jobId}` }),
  chargeReceipt: (organizationId: string, receiptId: string) => ({ PK: organizationPartition(organizationId), SK: `CHARGE#${receiptId}` }),
  paymentCustomer: (customerId: string) => ({ PK: `PAYCUSTOMER#${customerId}`, SK: 'PAYCUSTOMER' }),
  paymentEvent: (eventId: string) => ({ PK: `PAYEVENT#${eventId}`, SK: 'PAYEVENT' }),
} as const;

/** Processed-event markers outlive the provider's retry window (Stripe: 3 days) by far. */
const EVENT_MARKER_DAYS = 90;

export class BillingStore implements BillingLedger, UsageLedger {
  constructor(
    private readonly table: Table,
    private readonly clock: Clock = systemClock,
  ) {}

  // --- account and provider customer ------------------------------------------------------------

  async account(organizationId: string): Promise<BillingAccount> {
    const item = await this.get(keys.billingAccount(organizationId));
    return {
      creditsRemaining: 0,
      creditsUsed: 0,
      totalSpentCents: 0,
      ...(item as Partial<BillingAccount> | undefined),
    };
  }

  async attachCustomer(organizationId: string, customerId: string): Promise<string> {
    const failed = await transactWrite(this.table, [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression: 'SET customerId = :customer',
          ConditionExpression: 'attribute_not_exists(customerId)',
          ExpressionAttributeValues: { ':customer': customerId },
        },
      },
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.paymentCustomer(customerId), customerId, organizationId },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (!failed.length) return customerId;
    // Attached meanwhile by a concurrent call: that customer stays the organization's.
    const stored = (await this.account(organizationId)).customerId;
    if (!stored) throw new Error(`Payment customer ${customerId} belongs to another organization already.`);
    return stored;
  }

  async organizationOfCustomer(customerId: string): Promise<string | undefined> {
    return (await this.get(keys.paymentCustomer(customerId)))?.organizationId as string | undefined;
  }

  // --- paid state, written only by provider events ----------------------------------------------

  async subscriptions(organizationId: string): Promise<{ book: SubscriptionBook; organizationPlan?: PlanType }> {
    const [account, organization] = await Promise.all([this.account(organizationId), this.get(organizationKey(organizationId))]);
    return { book: subscriptionBookOf(account), organizationPlan: organization?.planType as PlanType | undefined };
  }

  async recordSubscriptions(
    organizationId: string,
    change: {
      eventId: string;
      read: { version: number; organizationPlan: PlanType };
      book: SubscriptionBook;
      shown: SubscriptionState;
      planType: PlanType;
    },
  ): Promise<'applied' | 'duplicate' | 'changed_meanwhile'> {
    const { read, book } = change;
    const failed = await transactWrite(this.table, [
      this.eventMarker(change.eventId, organizationId),
      {
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression:
            'SET subscriptions = :subscriptions, subscription = :shown, basePlan = :base, subscriptionsVersion = :next ' +
            'REMOVE subscriptionEventAt',
          ConditionExpression: read.version === 0 ? 'attribute_not_exists(subscriptionsVersion)' : 'subscriptionsVersion = :read',
          ExpressionAttributeValues: {
            ':subscriptions': book.subscriptions,
            ':shown': change.shown,
            ':base': book.basePlan,
            ':next': book.version,
            ...(read.version !== 0 && { ':read': read.version }),
          },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: organizationKey(organizationId),
          UpdateExpression: 'SET planType = :plan',
          // Written only over the plan the decision was made from (an admin may change it meanwhile).
          ConditionExpression: 'planType = :read',
          ExpressionAttributeValues: { ':plan': change.planType, ':read': read.organizationPlan },
        },
      },
    ]);
    if (!failed.length) return 'applied';
    return failed.includes(0) ? 'duplicate' : 'changed_meanwhile';
  }

  async markEventProcessed(organizationId: string, eventId: string): Promise<'stale' | 'duplicate'> {
    try {
      await this.table.client.send(new PutCommand(this.eventMarker(eventId, organizationId).Put!));
      return 'stale';
    } catch (error) {
      if (isConditionFailure(error)) return 'duplicate';
      throw error;
    }
  }

  async recordCreditPurchase(
    organizationId: string,
    purchase: { eventId: string; credits: number; amountPaidCents: number },
  ): Promise<EventOutcome> {
    const ceilings = purchaseCeilings(purchase);
    const failed = await transactWrite(this.table, [
      this.eventMarker(purchase.eventId, organizationId),
      {
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression: 'ADD creditsRemaining :credits, totalSpentCents :cents',
          // The sums stay exact numbers (purchaseCeilings).
          ConditionExpression:
            '(attribute_not_exists(creditsRemaining) OR creditsRemaining <= :creditsCeiling) AND ' +
            '(attribute_not_exists(totalSpentCents) OR totalSpentCents <= :centsCeiling)',
          ExpressionAttributeValues: {
            ':credits': purchase.credits,
            ':cents': purchase.amountPaidCents,
            ':creditsCeiling': ceilings.creditsRemaining,
            ':centsCeiling': ceilings.totalSpentCents,
          },
        },
      },
    ]);
    if (!failed.length) return 'applied';
    if (failed.includes(0)) return 'duplicate';
    throw invalidInput(
      `Adding ${purchase.credits} credits would take the balance or total spent past what can be counted exactly; nothing was changed.`,
    );
  }

  /** The processed marker of a provider event: put once, so a redelivery finds it and changes nothing. */
  private eventMarker(eventId: string, organizationId: string): TransactItem {
    return {
      Put: {
        TableName: this.table.name,
        Item: {
          ...keys.paymentEvent(eventId),
          eventId,
          organizationId,
          expiresAt: Math.floor(this.clock.now().getTime() / 1000) + EVENT_MARKER_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    };
  }

  // --- metering ----------------------------------------------------------------------------------

  async allowanceUsed(organizationId: string, day: string): Promise<number> {
    return (await this.day(organizationId, day)).allowanceUsed;
  }

  async creditsRemaining(organizationId: string): Promise<number> {
    return (await this.account(organizationId)).creditsRemaining;
  }

  async reserve(organizationId: string, reservation: Reservation, dailyLimit: number): Promise<ReserveOutcome> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.reservation(organizationId, reservation.jobId), ...reservation },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ];
    if (reservation.fromAllowance > 0) {
      items.push({
        Update: {
          TableName: this.table.name,
          Key: keys.usageDay(organizationId, reservation.day),
          UpdateExpression: 'SET #day = :day ADD allowanceUsed :take',
          // What is already used plus what this job takes stays within the daily limit.
          ConditionExpression: 'attribute_not_exists(allowanceUsed) OR allowanceUsed <= :max',
          ExpressionAttributeNames: { '#day': 'day' },
          ExpressionAttributeValues: {
            ':day': reservation.day,
            ':take': reservation.fromAllowance,
            ':max': dailyLimit - reservation.fromAllowance,
          },
        },
      });
    }
    if (reservation.fromCredits > 0) {
      items.push({
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression: 'SET creditsRemaining = creditsRemaining - :take',
          ConditionExpression: 'creditsRemaining >= :take',
          ExpressionAttributeValues: { ':take': reservation.fromCredits },
        },
      });
    }
    const failed = await transactWrite(this.table, items);
    if (!failed.length) return 'reserved';
    return failed.includes(0) ? 'already_reserved' : 'contended';
  }

  async reservation(organizationId: string, jobId: string): Promise<Reservation | undefined> {
    return (await this.get(keys.reservation(organizationId, jobId))) as Reservation | undefined;
  }

  async settle(organizationId: string, reservation: Reservation, settlement: Settlement): Promise<boolean> {
    const { month } = reservation;
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.reservation(organizationId, reservation.jobId),
          UpdateExpression: 'SET #status = :settled, #processed = :processed',
          ConditionExpression: '#status = :reserved',
          ExpressionAttributeNames: { '#status': 'status', '#processed': 'processed' },
          ExpressionAttributeValues: { ':settled': 'settled', ':reserved': 'reserved', ':processed': settlement.processed },
        },
      },
      {
        Update: {
          TableName: this.table.name,
          Key: keys.usageDay(organizationId, reservation.day),
          UpdateExpression: 'SET #day = :day, #month = :month ADD mappings :processed, allowanceUsed :refund, costCredits :cost',
          ExpressionAttributeNames: { '#day': 'day', '#month': 'month' },
          ExpressionAttributeValues: {
            ':day': reservation.day,
            ':month': month,
            ':processed': settlement.processed,
            ':refund': -settlement.allowanceRefund,
            ':cost': settlement.creditsUsed,
          },
        },
      },
    ];
    if (reservation.supplier) {
      const { id, code, name } = reservation.supplier;
      items.push(
        this.addUsage(
          keys.supplierUsage(organizationId, month, id),
          { month, supplierId: id, supplierCode: code, supplierName: name },
          settlement,
        ),
      );
    }
    if (reservation.fromCredits > 0) {
      items.push({
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression: 'ADD creditsRemaining :refund, creditsUsed :used',
          ExpressionAttributeValues: { ':refund': settlement.creditsRefund, ':used': settlement.creditsUsed },
        },
      });
    }
    return (await transactWrite(this.table, items)).length === 0;
  }

  async charge(organizationId: string, charge: Charge, dailyLimit: number, writes: readonly TransactItem[] = []): Promise<ChargeOutcome> {
    const { day, month, fromAllowance, fromCredits, receiptId } = charge;
    const used = { processed: fromAllowance + fromCredits, creditsUsed: fromCredits };
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const receipt: TransactItem[] = receiptId
      ? [
          {
            Put: {
              TableName: this.table.name,
              Item: {
                ...keys.chargeReceipt(organizationId, receiptId),
                mappings: used.processed,
                [TABLE_KEYS.ttlAttribute]: now + CHARGE_RECEIPT_HOURS * 3600,
              },
              // The table's TTL removes an expired item late: until then it counts as gone.
              ConditionExpression: 'attribute_not_exists(PK) OR #expires < :now',
              ExpressionAttributeNames: { '#expires': TABLE_KEYS.ttlAttribute },
              ExpressionAttributeValues: { ':now': now },
            },
          },
        ]
      : [];
    const items: TransactItem[] = [
      ...receipt,
      {
        Update: {
          TableName: this.table.name,
          Key: keys.usageDay(organizationId, day),
          UpdateExpression: 'SET #day = :day, #month = :month ADD mappings :processed, allowanceUsed :take, costCredits :cost',
          // What is already used plus what this takes stays within the daily limit.
          ConditionExpression: 'attribute_not_exists(allowanceUsed) OR allowanceUsed <= :max',
          ExpressionAttributeNames: { '#day': 'day', '#month': 'month' },
          ExpressionAttributeValues: {
            ':day': day,
            ':month': month,
            ':processed': used.processed,
            ':take': fromAllowance,
            ':cost': used.creditsUsed,
            ':max': dailyLimit - fromAllowance,
          },
        },
      },
    ];
    if (charge.supplier) {
      const { id, code, name } = charge.supplier;
      items.push(
        this.addUsage(
          keys.supplierUsage(organizationId, month, id),
          { month, supplierId: id, supplierCode: code, supplierName: name },
          used,
        ),
      );
    }
    if (fromCredits > 0) {
      items.push({
        Update: {
          TableName: this.table.name,
          Key: keys.billingAccount(organizationId),
          UpdateExpression: 'SET creditsRemaining = creditsRemaining - :take ADD creditsUsed :take',
          ConditionExpression: 'creditsRemaining >= :take',
          ExpressionAttributeValues: { ':take': fromCredits },
        },
      });
    }
    const failed = await transactWrite(this.table, [...items, ...writes]);
    if (failed.length === 0) return 'charged';
    return receipt.length > 0 && failed.includes(0) ? 'charged_before' : 'contended';
  }

  async charged(organizationId: string, receiptId: string): Promise<boolean> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.chargeReceipt(organizationId, receiptId), ConsistentRead: true }),
    );
    return Item !== undefined && Number(Item[TABLE_KEYS.ttlAttribute]) >= Math.floor(this.clock.now().getTime() / 1000);
  }

  /** Adds mappings done and their cost in credits to a usage counter, labelling it with `fields`. */
  private addUsage(
    key: Record<string, string>,
    fields: Record<string, string>,
    settlement: Pick<Settlement, 'processed' | 'creditsUsed'>,
  ): TransactItem {
    const names = Object.keys(fields);
    return {
      Update: {
        TableName: this.table.name,
        Key: key,
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} ADD mappings :processed, costCredits :cost`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name) => [`:${name}`, fields[name]])),
          ':processed': settlement.processed,
          ':cost': settlement.creditsUsed,
        },
      },
    };
  }

  // --- usage reads ---------------------------------------------------------------------------------

  async day(organizationId: string, day: string): Promise<DailyUsage> {
    const item = await this.get(keys.usageDay(organizationId, day));
    return { day, allowanceUsed: Number(item?.allowanceUsed ?? 0), mappings: Number(item?.mappings ?? 0) };
  }

  /** A month's usage: the sum of its days' (a charge writes its day's item only, half the writes of a month's beside it). */
  async month(organizationId: string, month: string): Promise<MonthlyUsage> {
    return (await this.months(organizationId, month, month))[0] ?? { month, mappings: 0, costCredits: 0 };
  }

  /** The months from `from` to `to` with any usage, oldest first, each the sum of its days'. */
  async months(organizationId: string, from: string, to: string): Promise<MonthlyUsage[]> {
    const days = await queryAll<DailyUsage & { month?: string; costCredits?: number }>(this.table, {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': organizationPartition(organizationId),
        ':from': keys.usageDay(organizationId, `${from}-01`).SK,
        ':to': keys.usageDay(organizationId, `${to}-31`).SK,
      },
    });
    const months = new Map<string, MonthlyUsage>();
    for (const day of days) {
      const month = day.month ?? day.day.slice(0, 7);
      const usage = months.get(month) ?? months.set(month, { month, mappings: 0, costCredits: 0 }).get(month)!;
      usage.mappings += day.mappings ?? 0;
      usage.costCredits += day.costCredits ?? 0;
    }
    return [...months.values()];
  }

  suppliers(organizationId: string, month: string): Promise<SupplierUsage[]> {
    return queryAll<SupplierUsage>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': keys.supplierUsagePrefix(month) },
    });
  }

  // --- helpers -----------------------------------------------------------------------------------

  private async get(key: Record<string, string>): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
    return Item ? withoutKeys(Item) : undefined;
  }
}
