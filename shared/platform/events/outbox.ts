import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventPublisher } from './events';
import { service } from '../runtime';
import { organizationPartition, queryAll, tableOf, type Table } from '../table';

/** Keys of this store's items in the single table. */
const keys = {
  event: (organizationId: string, occurredAt: string, eventId: string) => ({
    PK: organizationPartition(organizationId),
    SK: `EVENT#${occurredAt}#${eventId}`,
  }),

} as const;

/** Events kept in the table (an outbox per organization) until the webhook capability delivers them. */
export class EventOutbox implements EventPublisher {
  constructor(private readonly table: Table) {}

  async publish(event: DomainEvent): Promise<void> {
    await this.table.client.send(
      new PutCommand({ TableName: this.table.name, Item: { ...keys.event(event.organizationId, event.occurredAt, event.id), ...event } }),
    );
  }

  /** The organization's events, oldest first. */
  listForOrganization(organizationId: string): Promise<DomainEvent[]> {
    return queryAll<DomainEvent>(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': organizationPartition(organizationId), ':prefix': 'EVENT#' },
    });
  }
}

export const eventOutboxOf = /* @__PURE__ */ service((runtime) => new EventOutbox(tableOf(runtime)));
