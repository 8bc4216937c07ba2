/**
 * THE queue table: every queue the service consumes, once, gathered from the capabilities that
 * consume them. The CDK stack builds each SQS queue, its dead-letter queue, alarms and worker
 * functions from it; the local runtime wires the same workers to in-process queues.
 */
import { mappingBookWriteQueue, mappingChunkQueue, mappingDeadlineQueue, mappingExportQueue } from './mapping-jobs';
import { mappingBookExportQueue, mappingBookFollowQueue, mappingBookRecordQueue, referenceChangeQueue } from './mapping-book';
import { inventoryValidationQueue } from './partner-inventories';
import type { QueueAddress, QueueDefinition } from './platform/queue/queue';
import { referenceChangeMessages, referencePublicationQueue } from './reference';
import { domainEventQueue, webhookDeliveryQueue } from './webhooks';
import { fileDeliveryQueue } from './file-deliveries';

export const queueList: readonly QueueDefinition[] = [
  inventoryValidationQueue,
  mappingChunkQueue,
  mappingDeadlineQueue,
  mappingExportQueue,
  mappingBookWriteQueue,
  referencePublicationQueue,
  referenceChangeQueue,
  mappingBookFollowQueue,
  mappingBookExportQueue,
  mappingBookRecordQueue,
  domainEventQueue,
  webhookDeliveryQueue,
  fileDeliveryQueue,
];

/** The queues whose messages are recorded in a change's transaction (messagePut) and sent by the outbox relay. */
export const relayedQueues: readonly QueueAddress[] = [referenceChangeMessages, mappingBookRecordQueue, mappingExportQueue];
