import { failUnvalidatedInventory, inventoryValidationQueue } from '../../shared/partner-inventories';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(inventoryValidationQueue, failUnvalidatedInventory);
