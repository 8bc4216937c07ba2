import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { EVENT_TYPES, type DomainEvent, type EventPublisher } from './events';
import { defineQueue, type Queue } from '../queue/queue';
import { queueOf } from '../queue/services';
import { service } from '../runtime';
import { organizationPartition, queryAll, tableOf, type Table } from '../table';

/**
 * The queue every published event goes through. The webhooks capability consumes it: it turns each
 * event into one delivery per matching webhook (functions/workers/domain-events.ts).
 */
export const domainEventQueue = defineQueue({
  name: 'domain-events',
  handler: 'workers/domain-events',
  description: 'Turns each published event into one delivery per matching webhook',
  schema: v.object({
    id: v.string(),
    type: v.picklist(EVENT_TYPES),
    organizationId: v.string(),
    occurredAt: v.string(),
    data: v.record(v.string(), v.unknown()),
  }),
  maxReceiveCount: 5,
  batchSize: 10,
  access: { table: 'readwrite', sendsTo: ['webhook-deliveries'] },
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
});

/** Keys of this store's items in the single table. */
const keys = {
  event: (organizationId: string, occurredAt: string, eventId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `EVENT#${occurredAt}#${eventId}`,
  }),
} as const;

/**
 * Events are kept in the table (an outbox per organization, the record of what happened) and put
 * on the domain-events queue for delivery. Publishing one event twice (a retried worker) is safe:
 * the item is the same and its deliveries are keyed by event id.
 */
export class EventOutbox implements EventPublisher {
  constructor(
    private readonly table: Table,
    private readonly queue: () => Queue<DomainEvent>,
  ) {}

  async publish(event: DomainEvent): Promise<void> {
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...keys.event(event.organizationId, event.occurredAt, event.id), ...event } }),
    );
    await this.queue().send(event);
  }

  /** The organization's events, oldest first. */
  listForOrganization(organizationId: string): Promise<DomainEvent[]> {
    return queryAll<DomainEvent>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': 'EVENT#' },
    });
  }
}

export const eventOutboxOf = /* @__PURE__ */ service(
  (runtime) => new EventOutbox(tableOf(runtime), () => queueOf(runtime, domainEventQueue)),
);
