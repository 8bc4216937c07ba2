/** Partner inventories: an organization's hotel files, validated and ready to map. */
export { partnerInventoryRoutes } from './routes';
export {
  completePartnerInventoryUpload,
  createPartnerInventoryUpload,
  deletePartnerInventory,
  getPartnerInventory,
  listPartnerInventories,
  uploadPartnerInventory,
} from './endpoints';
export { inventoryValidationQueue } from './queue';
export { failUnvalidatedInventory, validateUploadedInventory } from './workers';
export { inventoryStoreOf } from './store';
export { readInventoryChunk } from './validation';
export {
  chunkRowRange,
  inventoryChunkRows,
  INVENTORY_FILES_PREFIX,
  INVENTORY_UPLOADS_PREFIX,
  UPLOAD_STAGING_DAYS,
  type PartnerInventory,
} from './inventory';
export { partnerInventoryComponentSchemas } from './schemas';
