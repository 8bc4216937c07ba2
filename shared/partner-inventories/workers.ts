/** Validation of files uploaded through presigned URLs, on the inventory-validation queue. */
import { DomainError, invalidInput } from '../platform/errors';
import { log } from '../platform/logging';
import { objectStoreOf } from '../platform/objects/services';
import type { Runtime } from '../platform/runtime';
import { inventoryObjects, presignedUploadMaxBytes } from './inventory';
import type { InventoryValidationMessage } from './queue';
import { inventoryStoreOf } from './store';
import { readInventoryFile, writeValidatedRows } from './validation';

/** The worker has 3 GB (queue.ts): a workbook may expand to 1 GB of XML here (about 2 GB read), a Parquet file to 1 GB of pages. */
const PRESIGNED_UPLOAD_LIMITS = { maxExpandedBytes: 1024 * 1024 * 1024 };

/** VALIDATING -> READY, or FAILED with the reason; a second delivery of the same message changes nothing. */
export async function validateUploadedInventory(message: InventoryValidationMessage, runtime: Runtime): Promise<void> {
  const store = inventoryStoreOf(runtime);
  const inventory = await store.get(message.organizationId, message.partnerInventoryId);
  if (inventory?.status !== 'VALIDATING') return;
  const objects = objectStoreOf(runtime);
  const source = inventoryObjects.source(inventory);
  const updatedAt = () => runtime.clock.now().toISOString();
  try {
    // The completion checked the upload's size, but a PUT may have replaced it before it was copied.
    const sizeBytes = await objects.size(source);
    const maxBytes = presignedUploadMaxBytes(runtime.config);
    if (sizeBytes !== undefined && sizeBytes > maxBytes)
      throw invalidInput(`The uploaded file has ${sizeBytes} bytes; the limit is ${maxBytes}.`);
    const file = await objects.get(source);
    if (!file) throw invalidInput('The uploaded file is gone; upload it again.');
    const rows = await readInventoryFile(inventory, file, PRESIGNED_UPLOAD_LIMITS);
    const counts = await writeValidatedRows(objects, inventory, rows);
    await store.transition(inventory, 'VALIDATING', { status: 'READY', ...counts, updatedAt: updatedAt() });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error; // an outage: let the queue deliver it again
    await store.transition(inventory, 'VALIDATING', { status: 'FAILED', error: error.message, updatedAt: updatedAt() });
  }
  await objects.delete([source]);
}

/** A validation that failed every delivery: the inventory says so instead of staying VALIDATING. */
export async function failUnvalidatedInventory(message: InventoryValidationMessage, runtime: Runtime): Promise<void> {
  const store = inventoryStoreOf(runtime);
  const inventory = await store.get(message.organizationId, message.partnerInventoryId);
  if (inventory?.status !== 'VALIDATING') return;
  log('error', 'inventory validation dead-lettered', { organizationId: inventory.organizationId, partnerInventoryId: inventory.id });
  await store.transition(inventory, 'VALIDATING', {
    status: 'FAILED',
    error: 'Validation did not finish. Upload the file again; if it keeps failing, contact support.',
    updatedAt: runtime.clock.now().toISOString(),
  });
}
