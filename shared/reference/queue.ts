/** The queue on which duplicate merges wait to be left out of a new publication. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';

export const referencePublicationQueue = defineQueue({
  name: 'reference-publication',
  handler: 'reference/publication',
  description: 'Republishes the reference inventory without the hotels merged as duplicates',
  schema: v.object({ reportId: v.string() }),
  maxReceiveCount: 5,
  // One republish covers every merge recorded before it: a batch of messages costs one.
  batchSize: 10,
  access: { table: 'readwrite', bucket: 'readwrite' },
  // A million hotels republish in about a minute.
  lambda: { memoryMb: 3008, timeoutSeconds: 600 },
  // One publication at a time.
  concurrency: { reserved: 1 },
});

export type RepublicationMessage = v.InferOutput<typeof referencePublicationQueue.schema>;
