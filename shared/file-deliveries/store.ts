/**
 * Destinations and their file deliveries in the single table. A destination is `ORG#<org>` /
 * `DELIVERY_DESTINATION#<id>` (counted, at most 10); a file delivery is `ORG#<org>` /
 * `FILE_DELIVERY#<id>`, listed per destination newest first on GSI1
 * (`ORG#<org>#DELIVERY_DESTINATION#<id>#DELIVERIES` / `<createdAt>#<id>`) and expired by TTL after
 * 30 days. An attempt is recorded once, under a condition on the attempts recorded before it.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { eventPut } from '../platform/events/outbox';
import type { DomainEvent } from '../platform/events/events';
import { service } from '../platform/runtime';
import {
  decodeCursor,
  encodeCursor,
  isConditionFailure,
  organizationPartition,
  OwnedItems,
  TABLE_KEYS,
  tableOf,
  transactWrite,
  withoutKeys,
  type Table,
} from '../platform/table';
import { MAX_DESTINATIONS_PER_ORGANIZATION, type DeliveryDestination } from './destination';
import { DELIVERY_HISTORY_DAYS, type FileDelivery, type FileDeliveryAttempt, type FileDeliveryStatus } from './file-delivery';

export class DestinationStore {
  private readonly items: OwnedItems<DeliveryDestination>;

  constructor(private readonly table: Table) {
    this.items = new OwnedItems(table, 'DELIVERY_DESTINATION', 'DELIVERY_DESTINATIONS');
  }

  /** False when the organization has MAX_DESTINATIONS_PER_ORGANIZATION already (checked in the write itself). */
  create(destination: DeliveryDestination): Promise<boolean> {
    return this.items.createWithin(destination, MAX_DESTINATIONS_PER_ORGANIZATION);
  }

  /** The organization's destination; another organization's is answered as missing. */
  get(organizationId: string, id: string): Promise<DeliveryDestination | undefined> {
    return this.items.get(organizationId, id);
  }

  /** Every destination of the organization, newest first (at most 10: one page). */
  async list(organizationId: string): Promise<DeliveryDestination[]> {
    return (await this.items.list(organizationId, MAX_DESTINATIONS_PER_ORGANIZATION + 5, undefined)).items;
  }

  /** Saves the next revision; false when it was deleted or changed since it was read. */
  replace(destination: DeliveryDestination): Promise<boolean> {
    return this.items.replace({ ...destination, revision: destination.revision + 1 }, destination.revision);
  }

  /** Saves the next revision with an event, in one transaction; false when the destination changed since it was read. */
  async replaceWithEvent(destination: DeliveryDestination, event: DomainEvent): Promise<boolean> {
    const failed = await transactWrite(this.table, [
      this.items.replacePut({ ...destination, revision: destination.revision + 1 }, destination.revision),
      eventPut(this.table, event),
    ]);
    return failed.length === 0;
  }

  delete(organizationId: string, id: string): Promise<boolean> {
    return this.items.deleteCounted(organizationId, id);
  }
}

export interface FileDeliveryPage {
  deliveries: FileDelivery[];
  nextCursor: string | null;
}

export class FileDeliveryStore {
  constructor(private readonly table: Table) {}

  private key(organizationId: string, id: string) {
    return { PK: organizationPartition(organizationId), SK: `FILE_DELIVERY#${id}` };
  }

  private historyPartition(organizationId: string, destinationId: string): string {
    return `${organizationPartition(organizationId)}#DELIVERY_DESTINATION#${destinationId}#DELIVERIES`;
  }

  /** False when a delivery with this id exists already (the same job's file to the same destination). */
  async create(delivery: FileDelivery): Promise<boolean> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...this.key(delivery.organizationId, delivery.id),
            GSI1PK: this.historyPartition(delivery.organizationId, delivery.destinationId),
            GSI1SK: `${delivery.createdAt}#${delivery.id}`,
            [TABLE_KEYS.ttlAttribute]: expiryOf(delivery.createdAt),
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

  async get(organizationId: string, id: string): Promise<FileDelivery | undefined> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: this.key(organizationId, id), ConsistentRead: true }),
    );
    return Item ? toDelivery(Item) : undefined;
  }

  /** Records attempt `attempt.number`, once: false when it was recorded already (a message delivered twice). */
  async record(
    delivery: FileDelivery,
    attempt: FileDeliveryAttempt,
    status: FileDeliveryStatus,
    nextAttemptAt: string | undefined,
  ): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: this.key(delivery.organizationId, delivery.id),
          UpdateExpression: `SET #status = :status, updatedAt = :at, attempts = list_append(attempts, :attempt), #ttl = :ttl${nextAttemptAt ? ', nextAttemptAt = :next' : ''}${nextAttemptAt ? '' : ' REMOVE nextAttemptAt'}`,
          ConditionExpression: 'size(attempts) = :before',
          ExpressionAttributeNames: { '#status': 'status', '#ttl': TABLE_KEYS.ttlAttribute },
          ExpressionAttributeValues: {
            ':status': status,
            ':at': attempt.attemptedAt,
            ':attempt': [attempt],
            ':ttl': expiryOf(attempt.attemptedAt),
            ':before': attempt.number - 1,
            ...(nextAttemptAt && { ':next': nextAttemptAt }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** A destination's deliveries, newest first. */
  async list(organizationId: string, destinationId: string, options: { limit: number; cursor?: string }): Promise<FileDeliveryPage> {
    const partition = this.historyPartition(organizationId, destinationId);
    const page = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: options.limit,
        ExclusiveStartKey: decodeCursor(options.cursor, { partition: { GSI1PK: partition }, attributes: ['GSI1SK', 'PK', 'SK'] }),
      }),
    );
    return {
      deliveries: (page.Items ?? []).map(toDelivery),
      nextCursor: page.LastEvaluatedKey ? encodeCursor(page.LastEvaluatedKey) : null,
    };
  }
}

function expiryOf(at: string): number {
  return Math.floor(new Date(at).getTime() / 1000) + DELIVERY_HISTORY_DAYS * 86_400;
}

function toDelivery(item: Record<string, unknown>): FileDelivery {
  const { [TABLE_KEYS.ttlAttribute]: _expiresAt, ...rest } = withoutKeys(item);
  return rest as unknown as FileDelivery;
}

export const destinationStoreOf = /* @__PURE__ */ service((runtime) => new DestinationStore(tableOf(runtime)));
export const fileDeliveryStoreOf = /* @__PURE__ */ service((runtime) => new FileDeliveryStore(tableOf(runtime)));
