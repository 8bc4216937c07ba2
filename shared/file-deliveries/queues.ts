/** The file deliveries' queue: one message per attempt of a delivery. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';
import { EXPORTS_PREFIX } from '../export-format';

export const fileDeliveryQueue = defineQueue({
  name: 'file-deliveries',
  handler: 'file-deliveries/delivery',
  deadLetterHandler: 'file-deliveries/delivery-dead-letters',
  description:
    "Writes one attempt of a completed job's export file to a partner's bucket or SFTP server, and queues the retry that follows a failure",
  schema: v.object({ organizationId: v.string(), fileDeliveryId: v.string(), attempt: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  maxReceiveCount: 5,
  // One file per invocation: a slow server holds up nobody else's delivery.
  batchSize: 1,
  access: {
    table: 'readwrite',
    resultObjects: { read: [EXPORTS_PREFIX] },
    sendsTo: ['file-deliveries'],
    schedules: ['file-deliveries'],
    secrets: 'open',
    partnerRoles: 'assume',
  },
  // It records the abandoned attempt and may disable the destination.
  deadLetterAccess: { table: 'readwrite' },
  // The file is held in memory once: an export of 4 million rows is at most about 1.3 GB.
  lambda: { memoryMb: 3008, timeoutSeconds: 900 },
  concurrency: { max: 10 },
});

export type FileDeliveryMessage = v.InferOutput<typeof fileDeliveryQueue.schema>;
