/**
 * The outbox relay: a function fed by the table's stream, filtered to new outbox items, that puts
 * each event on the domain-events queue (and each recorded message on the queue it names). A send that fails reports its record as the batch's
 * failure, so the stream hands it (and what follows it) again: an event recorded is an event
 * delivered, whatever the queue did at the time. Sending one twice is harmless: its deliveries
 * are keyed by event id.
 */
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { withCorrelationId } from '../correlation';
import { describeError, log, logger } from '../logging';
import type { Queue, QueueAddress, WorkerAccess } from '../queue/queue';
import { queueOf } from '../queue/services';
import { environmentRuntime, type Runtime } from '../runtime';
import type { DomainEvent } from './events';
import { domainEventMessages, EVENT_SORT_KEY_PREFIX, outboxItemOfStreamImage } from './outbox';

/** The relay as the stack deploys it. */
export const EVENT_RELAY = {
  handler: 'platform/event-relay',
  description: 'Relays each event recorded in the table (its stream) to the domain-events queue',
  // It reads the stream, not the table: the event source's role does that.
  access: { table: 'none', sendsTo: [domainEventMessages.name] } satisfies WorkerAccess,
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
  batchSize: 25,
  /** What the stream hands the relay: new items whose sort key is an event's (a Lambda event filter). */
  filter: { eventName: 'INSERT', sortKeyPrefix: EVENT_SORT_KEY_PREFIX },
} as const;

/** Whether a stream record is one the relay takes (as the event source's filter has it). */
export function isNewEvent(record: Pick<DynamoDBRecord, 'eventName' | 'dynamodb'>): boolean {
  return (
    record.eventName === EVENT_RELAY.filter.eventName && (record.dynamodb?.Keys?.SK?.S ?? '').startsWith(EVENT_RELAY.filter.sortKeyPrefix)
  );
}

/**
 * Relays the records in order; the first that fails is the batch's failure (the stream retries from
 * it). `queues` are the queues the relay sends to, by name: the domain events' and those messages name.
 */
export async function relayEvents(
  records: readonly DynamoDBRecord[],
  queues: ReadonlyMap<string, Queue<unknown>>,
): Promise<DynamoDBBatchResponse> {
  for (const record of records) {
    const item = isNewEvent(record)
      ? outboxItemOfStreamImage(record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined)
      : undefined;
    if (!item) continue;
    const queue = queues.get(item.queue);
    if (!queue) {
      // Retrying cannot help a message for a queue this relay was not given: said loudly, and passed.
      log('error', 'event relay: an outbox item names a queue the relay does not send to', { queue: item.queue });
      continue;
    }
    const event = item.queue === domainEventMessages.name ? (item.message as DomainEvent) : undefined;
    try {
      // Under the recording work's correlation id, so that the message carries it on (to the deliveries, say).
      const send = () => queue.send(item.message);
      await (item.correlationId ? withCorrelationId(item.correlationId, send) : send());
    } catch (error) {
      log('warn', 'event relay: the queue did not take an outbox item; the stream hands it again', {
        queue: item.queue,
        ...(event && { eventId: event.id }),
        ...describeError(error),
      });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
}

/** Lambda passes its context; the local runtime and tests pass none. */
export type StreamHandler = (event: DynamoDBStreamEvent, context?: Context) => Promise<DynamoDBBatchResponse>;

export interface RelayFunction extends StreamHandler {
  /** The same handler over another runtime (the local runtime, tests). */
  withRuntime(runtime: Runtime): StreamHandler;
}

/** The relay over the domain-events queue and the queues `relayed` (those messagePut records messages for). */
export function eventRelayFunction(relayed: readonly QueueAddress[] = []): RelayFunction {
  const build =
    (runtime: () => Runtime): StreamHandler =>
    (event, context) => {
      // Its log lines carry the Lambda context, as the middy-built functions' do.
      if (context) logger.addContext(context);
      const queues = new Map([domainEventMessages, ...relayed].map((address) => [address.name, queueOf(runtime(), address)]));
      return relayEvents(event.Records, queues);
    };
  const lambda = build(environmentRuntime) as RelayFunction;
  lambda.withRuntime = (runtime) => build(() => runtime);
  return lambda;
}
