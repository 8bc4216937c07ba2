/** The queue on which uploaded files wait for validation. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';
import { INVENTORY_FILES_PREFIX } from './inventory';

export const inventoryValidationQueue = defineQueue({
  name: 'inventory-validation',
  handler: 'partner-inventories/validation',
  deadLetterHandler: 'partner-inventories/validation-dead-letters',
  description: 'Validates files uploaded through presigned URLs',
  schema: v.object({ organizationId: v.string(), partnerInventoryId: v.string() }),
  maxReceiveCount: 3,
  batchSize: 1,
  access: { table: 'readwrite', objects: { read: [INVENTORY_FILES_PREFIX], write: [INVENTORY_FILES_PREFIX] } },
  // It only marks the inventory FAILED.
  deadLetterAccess: { table: 'readwrite' },
  // A 200 MB file read whole, and its rows, fit in 3 GB; 200,000 rows validate in well under a minute.
  lambda: { memoryMb: 3008, timeoutSeconds: 300 },
  concurrency: { max: 10 },
});

export type InventoryValidationMessage = v.InferOutput<typeof inventoryValidationQueue.schema>;
