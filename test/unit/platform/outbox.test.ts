/**
 * The outbox's event items expire through the table's TTL, and the relay takes only inserted event
 * items from the stream: the deletions the TTL makes (REMOVE records) are never relayed.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DomainEvent } from '../../../shared/platform/events/events';
import { EVENT_RETENTION_DAYS, eventPut, messagePut } from '../../../shared/platform/events/outbox';
import { relayEvents } from '../../../shared/platform/events/relay';
import type { Queue } from '../../../shared/platform/queue/queue';
import { TABLE_KEYS, type Table } from '../../../shared/platform/table';

const table = { name: 'hotel-mapping-test' } as Table;
const event: DomainEvent = {
  id: 'job-1-completed',
  type: 'MAPPING_COMPLETED',
  organizationId: 'org-1',
  occurredAt: '2026-11-23T10:00:00.000Z',
  data: { mappingJobId: 'job-1' },
  correlationId: 'request-1',
};

function recordingQueue(): Queue<unknown> & { sent: unknown[] } {
  const sent: unknown[] = [];
  return { sent, send: async (message) => void sent.push(message), sendAll: async (messages) => void sent.push(...messages) };
}

function streamRecord(eventName: 'INSERT' | 'REMOVE', item: Record<string, unknown>, sequence: string): DynamoDBRecord {
  const image = marshall(item) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
  const keys = marshall({ PK: item.PK, SK: item.SK }) as NonNullable<DynamoDBRecord['dynamodb']>['Keys'];
  return {
    eventName,
    dynamodb: { Keys: keys, SequenceNumber: sequence, ...(eventName === 'INSERT' ? { NewImage: image } : { OldImage: image }) },
    // What the stream says of a deletion made by the TTL.
    ...(eventName === 'REMOVE' && { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } }),
  };
}

describe('outbox event items', () => {
  it(`carry the table's TTL attribute, ${EVENT_RETENTION_DAYS} days after the event occurred`, () => {
    const { Put } = eventPut(table, event);
    assert.equal(Put.TableName, 'hotel-mapping-test');
    assert.equal(Put.Item[TABLE_KEYS.ttlAttribute], Date.parse('2026-12-23T10:00:00.000Z') / 1000);
    assert.equal(Put.Item.PK, 'ORG#org-1');
    assert.equal(Put.Item.SK, 'EVENT#2026-11-23T10:00:00.000Z#job-1-completed');
  });

  it('are relayed when inserted, without their keys or expiry, and never when the TTL removes them', async () => {
    const { Item } = eventPut(table, event).Put;
    const queue = recordingQueue();
    const response = await relayEvents(
      [streamRecord('REMOVE', Item, '1'), streamRecord('INSERT', Item, '2'), streamRecord('REMOVE', Item, '3')],
      new Map([['domain-events', queue]]),
    );
    assert.deepEqual(response, { batchItemFailures: [] });
    assert.deepEqual(queue.sent, [event]);
  });

  it('can carry a message for another queue, relayed to that queue alone, and only when inserted', async () => {
    const address = { name: 'reference-publications', schema: v.object({ artifactsId: v.string() }) };
    const { Put } = messagePut(table, address, { artifactsId: 'a-2' }, { id: 'a-2', at: '2026-11-23T10:00:00.000Z' });
    assert.equal(Put.Item.SK, 'EVENT#2026-11-23T10:00:00.000Z#a-2', 'the stream filter takes it with the events');
    const [events, publications] = [recordingQueue(), recordingQueue()];
    const queues = new Map([
      ['domain-events', events],
      ['reference-publications', publications],
    ]);
    assert.deepEqual(await relayEvents([streamRecord('INSERT', Put.Item, '1'), streamRecord('REMOVE', Put.Item, '2')], queues), {
      batchItemFailures: [],
    });
    assert.deepEqual(publications.sent, [{ artifactsId: 'a-2' }]);
    assert.deepEqual(events.sent, []);
  });
});
