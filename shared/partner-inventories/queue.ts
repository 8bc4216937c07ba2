/** The queue on which uploaded files wait for validation. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';

export const inventoryValidationQueue = defineQueue({
  name: 'inventory-validation',
  handler: 'partner-inventories/validation',
  deadLetterHandler: 'partner-inventories/validation-dead-letters',
  description: 'Validates files uploaded through presigned URLs',
  schema: v.object({ organizationId: v.string(), partnerInventoryId: v.string() }),
  maxReceiveCount: 3,
  batchSize: 1,
  access: { table: 'readwrite', bucket: 'readwrite' },
  // A 200 MB file read whole, and its rows, fit in 3 GB; 200,000 rows validate in well under a minute.
  lambda: { memoryMb: 3008, timeoutSeconds: 300 },
  concurrency: { max: 10 },
});

export type InventoryValidationMessage = v.InferOutput<typeof inventoryValidationQueue.schema>;
