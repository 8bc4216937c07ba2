/** The queues mapping jobs run on: one message per chunk of rows, and one deadline per job. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';

export const mappingChunkQueue = defineQueue({
  name: 'mapping-chunks',
  handler: 'mapping-jobs/chunk',
  deadLetterHandler: 'mapping-jobs/chunk-dead-letters',
  description: 'Maps one chunk (2,000 rows) of a job against the pinned reference index',
  schema: v.object({ organizationId: v.string(), mappingJobId: v.string(), chunk: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  maxReceiveCount: 3,
  batchSize: 1,
  access: { table: 'readwrite', bucket: 'readwrite' },
  // It only fails the job and releases its reservation.
  deadLetterAccess: { table: 'readwrite' },
  // Loading the matching index of a million hotels peaks at about 0.75 GB; a chunk maps in well
  // under a second and writes its 2,000 results in a few more. The timeout leaves room for a cold
  // index load. The memory also buys the CPU share that load and matching need.
  lambda: { memoryMb: 4096, timeoutSeconds: 180 },
  // A 100,000-row job runs all its chunks at once; larger jobs, and jobs beside it, wait their turn.
  concurrency: { max: 50 },
});

export const mappingDeadlineQueue = defineQueue({
  name: 'mapping-deadlines',
  handler: 'mapping-jobs/deadline',
  // A deadline the worker or the scheduler could not deliver still fails its job: no reservation is held forever.
  deadLetterHandler: 'mapping-jobs/deadline-dead-letters',
  description: 'Fails a job still unfinished at its deadline and releases its reserved mappings',
  schema: v.object({ organizationId: v.string(), mappingJobId: v.string() }),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  maxReceiveCount: 5,
  batchSize: 10,
  access: { table: 'readwrite' },
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
  concurrency: { max: 2 },
});

export type ChunkMessage = v.InferOutput<typeof mappingChunkQueue.schema>;
export type DeadlineMessage = v.InferOutput<typeof mappingDeadlineQueue.schema>;
