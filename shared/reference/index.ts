/** The reference inventory: the canonical hotels everything is mapped against, searchable from memory. */
export { referenceRoutes } from './routes';
export {
  advancedSearchReference,
  downloadReference,
  getDuplicateReport,
  referenceCountry,
  referenceCountryList,
  referenceHotel,
  referenceStatistics,
  reportDuplicate,
  resolveDuplicateReport,
  searchReference,
} from './endpoints';
export type { HotelDescription, ReferenceHotel } from '../mapping';
export { findReferenceHotel, publishedReferenceOf, referenceHotelsOf, referencePortsOf, referenceStoreOf } from './services';
export { importReferenceInventory, type ImportSummary, type RejectedRow } from './publication';
export { csvHeaderLine, csvLine, inventoryFileChunks, jsonLine, type InventoryFileFormat } from './inventory-file';
export { referencePublicationQueue } from './queue';
export { MATCHING_INDEX_PREFIX, RECORD_PAGES_PREFIX, REFERENCE_FILES_PREFIX } from './inventory';
export { republishAfterMerge } from './workers';
export { referenceComponentSchemas } from './schemas';
