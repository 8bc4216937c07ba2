import { inventoryValidationQueue, validateUploadedInventory } from '../../shared/partner-inventories';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(inventoryValidationQueue, validateUploadedInventory);
