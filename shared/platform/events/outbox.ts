import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventPublisher } from './events';
import { keys, queryAll, type Table } from '../table';

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
      ExpressionAttributeValues: { ':pk': keys.organizationPartition(organizationId), ':prefix': 'EVENT#' },
    });
  }
}
