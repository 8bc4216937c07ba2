/**
 * The transactional outbox. A producer writes the event item in the same DynamoDB transaction as
 * the change the event tells of (eventPut), so there is never a change without its event or an
 * event without its change. The table's stream carries each new event item to the relay
 * (relay.ts), which puts it on the domain-events queue, retrying until the queue takes it. The
 * items stay in the table as the record of what happened for EVENT_RETENTION_DAYS, then expire
 * through the table's TTL (the relay ignores those deletions: it takes only inserted items).
 *
 * A message for another queue can be recorded the same way (messagePut): the relay puts it on the
 * queue it names, so work that must follow a change (a reference publication's follow-up) is never
 * lost between the change and a send.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import * as v from 'valibot';
import { currentCorrelationId } from '../correlation';
import type { DomainEvent } from './events';
import type { QueueAddress } from '../queue/queue';
import { service } from '../runtime';
import { organizationPartition, queryAll, TABLE_KEYS, tableOf, withoutKeys, type Table } from '../table';

/**
 * The queue the relay puts every recorded event on. The capability that consumes the events
 * declares its worker on it (a queue definition with this name and schema, in the queue table).
 */
export const domainEventMessages: QueueAddress<DomainEvent> = {
  name: 'domain-events',
  schema: v.object({
    id: v.string(),
    type: v.string(),
    organizationId: v.string(),
    occurredAt: v.string(),
    data: v.record(v.string(), v.unknown()),
    correlationId: v.optional(v.string()),
  }),
};

/** Every event item's sort key starts so: the stream filter and the relay select them by it. */
export const EVENT_SORT_KEY_PREFIX = 'EVENT#';

function eventKey(event: Pick<DomainEvent, 'organizationId' | 'occurredAt' | 'id'>) {
  return { PK: organizationPartition(event.organizationId), SK: `${EVENT_SORT_KEY_PREFIX}${event.occurredAt}#${event.id}` };
}

/**
 * How long an event item is kept. The relay takes it from the stream within the stream's 24 hours;
 * after that nothing reads it (a webhook delivery keeps the event it sends, and a redelivery sends
 * that copy), so it only tells what happened: for as long as webhook deliveries keep their history.
 */
export const EVENT_RETENTION_DAYS = 30;

/** When the table's TTL removes the item of an event that occurred at `occurredAt` (epoch seconds). */
export function eventExpiry(occurredAt: string): number {
  return Math.floor(Date.parse(occurredAt) / 1000) + EVENT_RETENTION_DAYS * 86_400;
}

/** The write that records an event, for the transaction that makes the change it tells of, with the correlation id of the work that made it. */
export function eventPut(table: Table, event: DomainEvent) {
  const correlationId = event.correlationId ?? currentCorrelationId();
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...eventKey(event),
        ...event,
        ...(correlationId !== undefined && { correlationId }),
        [TABLE_KEYS.ttlAttribute]: eventExpiry(event.occurredAt),
      },
    },
  };
}

/**
 * The write that records a message for `address` in the transaction of the change it follows; the
 * relay sends it. `id` makes the item unique (the same id recorded twice is one item).
 */
export function messagePut<M>(table: Table, address: QueueAddress<M>, message: M, recorded: { id: string; at: string }) {
  const correlationId = currentCorrelationId();
  return {
    Put: {
      TableName: table.name,
      Item: {
        PK: `OUTBOX#${address.name}`,
        SK: `${EVENT_SORT_KEY_PREFIX}${recorded.at}#${recorded.id}`,
        relayTo: address.name,
        message,
        ...(correlationId !== undefined && { correlationId }),
        [TABLE_KEYS.ttlAttribute]: eventExpiry(recorded.at),
      },
    },
  };
}

/**
 * What an outbox item asks the relay to send: an event (to the domain-events queue) or a message to
 * a named queue, under the correlation id of the work that recorded it.
 */
export type OutboxItem = { queue: string; message: unknown; correlationId?: string };

/** The event an item holds, without the table's keys and expiry. */
function eventOfItem(item: Record<string, unknown>): DomainEvent {
  const { [TABLE_KEYS.ttlAttribute]: _expiry, ...event } = withoutKeys(item);
  return event as unknown as DomainEvent;
}

/** What an outbox item of the table's stream asks to send, or undefined for any other item. */
export function outboxItemOfStreamImage(image: Record<string, AttributeValue> | undefined): OutboxItem | undefined {
  if (!image?.SK?.S?.startsWith(EVENT_SORT_KEY_PREFIX)) return undefined;
  const item = unmarshall(image);
  if (typeof item.relayTo === 'string') {
    return {
      queue: item.relayTo,
      message: item.message,
      ...(typeof item.correlationId === 'string' && { correlationId: item.correlationId }),
    };
  }
  const event = eventOfItem(item);
  return { queue: domainEventMessages.name, message: event, correlationId: event.correlationId ?? event.id };
}

/** The events recorded so far. */
export class EventOutbox {
  constructor(private readonly table: Table) {}

  /** The organization's events, oldest first. */
  async listForOrganization(organizationId: string): Promise<DomainEvent[]> {
    const items = await queryAll<Record<string, unknown>>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': EVENT_SORT_KEY_PREFIX },
    });
    return items.map(eventOfItem);
  }
}

export const eventOutboxOf = /* @__PURE__ */ service((runtime) => new EventOutbox(tableOf(runtime)));
