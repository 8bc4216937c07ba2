/**
 * The transactional outbox. A producer writes the event item in the same DynamoDB transaction as
 * the change the event tells of (eventPut), so there is never a change without its event or an
 * event without its change. The table's stream carries each new event item to the relay
 * (relay.ts), which puts it on the domain-events queue, retrying until the queue takes it. The
 * items stay in the table as the record of what happened.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import * as v from 'valibot';
import { currentCorrelationId } from '../correlation';
import type { DomainEvent } from './events';
import type { QueueAddress } from '../queue/queue';
import { service } from '../runtime';
import { organizationPartition, queryAll, tableOf, withoutKeys, type Table } from '../table';

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

/** The write that records an event, for the transaction that makes the change it tells of, with the correlation id of the work that made it. */
export function eventPut(table: Table, event: DomainEvent) {
  const correlationId = event.correlationId ?? currentCorrelationId();
  return { Put: { TableName: table.name, Item: { ...eventKey(event), ...event, ...(correlationId !== undefined && { correlationId }) } } };
}

/** The event an item of the table's stream holds, or undefined for any other item. */
export function eventOfStreamImage(image: Record<string, AttributeValue> | undefined): DomainEvent | undefined {
  if (!image?.SK?.S?.startsWith(EVENT_SORT_KEY_PREFIX)) return undefined;
  return withoutKeys(unmarshall(image)) as unknown as DomainEvent;
}

/** The events recorded so far. */
export class EventOutbox {
  constructor(private readonly table: Table) {}

  /** The organization's events, oldest first. */
  listForOrganization(organizationId: string): Promise<DomainEvent[]> {
    return queryAll<DomainEvent>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': EVENT_SORT_KEY_PREFIX },
    });
  }
}

export const eventOutboxOf = /* @__PURE__ */ service((runtime) => new EventOutbox(tableOf(runtime)));
