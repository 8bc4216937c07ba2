/** The queue on which duplicate merges wait to be left out of a new publication. */
import * as v from 'valibot';
import { defineQueue, type QueueAddress } from '../platform/queue/queue';
import { MATCHING_INDEX_PREFIX, REFERENCE_FILES_PREFIX } from './inventory';

/**
 * Each publication made, as the outbox relays it (recorded in the publication's own transaction):
 * what it changed is in its changes file. Its consumer (the mapping book) declares the queue.
 */
export const referenceChangeMessages: QueueAddress<{ artifactsId: string }> = {
  name: 'reference-changes',
  schema: v.object({ artifactsId: v.string() }),
};

export const referencePublicationQueue = defineQueue({
  name: 'reference-publication',
  handler: 'reference/publication',
  description: 'Republishes the reference inventory without the hotels merged as duplicates',
  schema: v.object({ reportId: v.string() }),
  // One group: SQS hands out one batch at a time, so publications never overlap and a message waits
  // for the one before instead of being throttled into the dead-letter queue. A report's request
  // sent again within 5 minutes (a retried resolution) is taken once.
  fifo: { groupOf: () => 'publication', deduplicationIdOf: ({ reportId }) => reportId },
  maxReceiveCount: 5,
  // One republish covers every merge recorded before it: a batch of messages costs one.
  batchSize: 10,
  // Writes and retires publications (a retired matching index is tagged to expire a day later).
  access: {
    table: 'readwrite',
    objects: {
      read: [REFERENCE_FILES_PREFIX],
      write: [REFERENCE_FILES_PREFIX],
      delete: [REFERENCE_FILES_PREFIX],
      expire: [MATCHING_INDEX_PREFIX],
    },
  },
  // A million hotels republish in about a minute.
  lambda: { memoryMb: 3008, timeoutSeconds: 600 },
  // The least SQS takes; one group runs one invocation at a time anyway.
  concurrency: { max: 2 },
});

export type RepublicationMessage = v.InferOutput<typeof referencePublicationQueue.schema>;
