/**
 * Webhooks and their deliveries in the single table. A webhook is `ORG#<org>` / `WEBHOOK#<id>`; a
 * delivery is `ORG#<org>` / `WEBHOOK_DELIVERY#<id>`, listed per subscription newest first on GSI1
 * (`ORG#<org>#WEBHOOK#<id>#DELIVERIES` / `<createdAt>#<id>`) and expired by TTL after 30 days. An
 * attempt is claimed before it is sent and recorded after, each under a condition, so a queue
 * message delivered twice never sends twice.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageReceive } from '../platform/queue/worker';
import { service } from '../platform/runtime';
import {
  decodeCursor,
  encodeCursor,
  isConditionFailure,
  organizationPartition,
  OwnedItems,
  TABLE_KEYS,
  tableOf,
  withoutKeys,
  type Table,
} from '../platform/table';
import { DELIVERY_HISTORY_DAYS, type Delivery, type DeliveryAttempt, type DeliveryStatus } from './delivery';
import { MAX_WEBHOOKS_PER_ORGANIZATION, type Webhook } from './webhook';

export class WebhookStore {
  private readonly items: OwnedItems<Webhook>;

  constructor(table: Table) {
    this.items = new OwnedItems(table, 'WEBHOOK', 'WEBHOOKS');
  }

  /** False when the organization has MAX_WEBHOOKS_PER_ORGANIZATION webhooks already (checked in the write itself). */
  create(webhook: Webhook): Promise<boolean> {
    return this.items.createWithin(webhook, MAX_WEBHOOKS_PER_ORGANIZATION);
  }

  /** The organization's webhook; another organization's is answered as missing. */
  get(organizationId: string, id: string): Promise<Webhook | undefined> {
    return this.items.get(organizationId, id);
  }

  /** Every webhook of the organization, newest first (about 20: every page is read all the same). */
  async list(organizationId: string): Promise<Webhook[]> {
    const webhooks: Webhook[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.items.list(organizationId, MAX_WEBHOOKS_PER_ORGANIZATION + 5, cursor);
      webhooks.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return webhooks;
  }

  /** Saves the next revision of a webhook; false when it was deleted or changed since it was read. */
  replace(webhook: Webhook): Promise<boolean> {
    return this.items.replace({ ...webhook, revision: webhook.revision + 1 }, webhook.revision);
  }

  delete(organizationId: string, id: string): Promise<boolean> {
    return this.items.deleteCounted(organizationId, id);
  }
}

export interface DeliveryPage {
  deliveries: Delivery[];
  nextCursor: string | null;
}

export class DeliveryStore {
  constructor(private readonly table: Table) {}

  private key(organizationId: string, deliveryId: string) {
    return { PK: organizationPartition(organizationId), SK: `WEBHOOK_DELIVERY#${deliveryId}` };
  }

  private historyPartition(organizationId: string, webhookId: string): string {
    return `${organizationPartition(organizationId)}#WEBHOOK#${webhookId}#DELIVERIES`;
  }

  /** False when a delivery with this id exists already (the same event for the same webhook). */
  async create(delivery: Delivery): Promise<boolean> {
    const expiresAt = expiryOf(delivery.createdAt);
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...this.key(delivery.organizationId, delivery.id),
            // Legacy deliveries keep no history: they are not listed.
            ...(delivery.kind === 'SUBSCRIPTION' && {
              GSI1PK: this.historyPartition(delivery.organizationId, delivery.webhookId),
              GSI1SK: `${delivery.createdAt}#${delivery.id}`,
            }),
            [TABLE_KEYS.ttlAttribute]: expiresAt,
            ...delivery,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(organizationId: string, deliveryId: string): Promise<Delivery | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(organizationId, deliveryId), ConsistentRead: true }),
    );
    return Item ? toDelivery(Item) : undefined;
  }

  /** Attempt `number` is this caller's to send; false when another delivery of the message claimed it. */
  async claim(delivery: Delivery, number: number, claimedAt: string, claimedBy?: MessageReceive): Promise<boolean> {
    return this.update(delivery, {
      set: { claimedAttempts: number, claimedAt, updatedAt: claimedAt, ...(claimedBy && { claimedBy }) },
      remove: claimedBy ? [] : ['claimedBy'],
      condition: 'claimedAttempts = :previous AND #status IN (:pending, :retrying)',
      values: { ':previous': number - 1, ':pending': 'PENDING', ':retrying': 'RETRYING' },
    });
  }

  /** Records the claimed attempt's outcome, once; the history is kept 30 days from the last attempt. */
  async record(delivery: Delivery, attempt: DeliveryAttempt, status: DeliveryStatus, nextAttemptAt: string | undefined): Promise<boolean> {
    return this.update(delivery, {
      set: {
        status,
        updatedAt: attempt.attemptedAt,
        [TABLE_KEYS.ttlAttribute]: expiryOf(attempt.attemptedAt),
        ...(nextAttemptAt && { nextAttemptAt }),
      },
      append: { attempts: attempt },
      remove: nextAttemptAt ? [] : ['nextAttemptAt'],
      condition: 'claimedAttempts = :number AND size(attempts) = :before',
      values: { ':number': attempt.number, ':before': attempt.number - 1 },
    });
  }

  /** Ends a delivery whose next attempt could not be queued: it can be redelivered. */
  async deadLetter(delivery: Delivery, at: string): Promise<boolean> {
    return this.update(delivery, {
      set: { status: 'DEAD_LETTERED', updatedAt: at },
      remove: ['nextAttemptAt'],
      condition: '#status = :status AND claimedAttempts = :attempts AND size(attempts) = :attempts',
      values: { ':status': delivery.status, ':attempts': delivery.attempts.length },
    });
  }

  /** Starts a new round of attempts over the status read; false when the delivery moved meanwhile. */
  async redeliver(delivery: Delivery, at: string): Promise<boolean> {
    return this.update(delivery, {
      set: { status: 'PENDING', roundStart: delivery.attempts.length, updatedAt: at },
      remove: ['nextAttemptAt'],
      condition: '#status = :status AND claimedAttempts = :attempts AND size(attempts) = :attempts',
      values: { ':status': delivery.status, ':attempts': delivery.attempts.length },
    });
  }

  /** Puts a redelivery whose message could not be sent back as it was. */
  async undoRedelivery(before: Delivery, at: string): Promise<boolean> {
    return this.update(before, {
      set: {
        status: before.status,
        roundStart: before.roundStart,
        updatedAt: at,
        ...(before.nextAttemptAt && { nextAttemptAt: before.nextAttemptAt }),
      },
      condition: '#status = :pending AND claimedAttempts = :attempts',
      values: { ':pending': 'PENDING', ':attempts': before.attempts.length },
    });
  }

  /** A subscription's deliveries, newest first, optionally of one status. */
  async list(
    organizationId: string,
    webhookId: string,
    options: { status?: DeliveryStatus; limit: number; cursor?: string },
  ): Promise<DeliveryPage> {
    const partition = this.historyPartition(organizationId, webhookId);
    let startKey: Record<string, unknown> | undefined = decodeCursor(options.cursor, {
      partition: { GSI1PK: partition },
      attributes: ['GSI1SK', 'PK', 'SK'],
    });
    const found: Record<string, unknown>[] = [];
    // A status filter reads pages of 100 and keeps the matching ones: at most this many pages per
    // request, then the cursor says where to go on (a page may then hold fewer than `limit`).
    for (let reads = 1; ; reads++) {
      const room = options.limit - found.length;
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          IndexName: TABLE_KEYS.gsi1.name,
          KeyConditionExpression: 'GSI1PK = :pk',
          ...(options.status && { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }),
          ExpressionAttributeValues: { ':pk': partition, ...(options.status && { ':status': options.status }) },
          ScanIndexForward: false,
          // One more than needed tells whether a next page exists; a filter reads more per call.
          Limit: options.status ? 100 : room + 1,
          ExclusiveStartKey: startKey,
        }),
      );
      const items = page.Items ?? [];
      found.push(...items.slice(0, room));
      const last = found.at(-1);
      if (items.length > room) return { deliveries: found.map(toDelivery), nextCursor: last ? cursorAt(last) : null };
      if (!page.LastEvaluatedKey) return { deliveries: found.map(toDelivery), nextCursor: null };
      if (found.length === options.limit || reads === MAX_FILTERED_READS) {
        return { deliveries: found.map(toDelivery), nextCursor: encodeCursor(page.LastEvaluatedKey) };
      }
      startKey = page.LastEvaluatedKey;
    }
  }

  /** One conditional update; every change sets or tests the status, named `#status`. */
  private async update(
    delivery: Delivery,
    change: {
      set: Record<string, unknown>;
      append?: Record<string, unknown>;
      remove?: string[];
      condition: string;
      values: Record<string, unknown>;
    },
  ): Promise<boolean> {
    const names: Record<string, string> = { '#status': 'status' };
    const values: Record<string, unknown> = { ...change.values };
    const sets = Object.entries(change.set).map(([name, value], index) => {
      const alias = name === 'status' ? '#status' : `#s${index}`;
      names[alias] = name;
      values[`:s${index}`] = value;
      return `${alias} = :s${index}`;
    });
    for (const [name, value] of Object.entries(change.append ?? {})) {
      names[`#${name}`] = name;
      values[`:${name}`] = [value];
      sets.push(`#${name} = list_append(#${name}, :${name})`);
    }
    const removes = (change.remove ?? []).map((name) => {
      names[`#r_${name}`] = name;
      return `#r_${name}`;
    });
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.key(delivery.organizationId, delivery.id),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: change.condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

/** Pages a status-filtered history read goes through per request. */
const MAX_FILTERED_READS = 10;

function expiryOf(at: string): number {
  return Math.floor(new Date(at).getTime() / 1000) + DELIVERY_HISTORY_DAYS * 86_400;
}

function toDelivery(item: Record<string, unknown>): Delivery {
  const { [TABLE_KEYS.ttlAttribute]: _expiresAt, ...rest } = withoutKeys(item);
  return rest as unknown as Delivery;
}

function cursorAt(item: Record<string, unknown>): string | null {
  const { GSI1PK, GSI1SK, PK, SK } = item;
  return encodeCursor({ GSI1PK, GSI1SK, PK, SK });
}

export const webhookStoreOf = /* @__PURE__ */ service((runtime) => new WebhookStore(tableOf(runtime)));
export const deliveryStoreOf = /* @__PURE__ */ service((runtime) => new DeliveryStore(tableOf(runtime)));
