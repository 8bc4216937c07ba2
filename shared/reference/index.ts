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
export {
  findReferenceHotel,
  referenceHotelShown,
  publishedReferenceOf,
  referenceHotelsOf,
  referencePortsOf,
  referenceStoreOf,
} from './services';
export { importReferenceInventory, readReferenceChanges, type ImportSummary, type RejectedRow } from './publication';
export { csvHeaderLine, csvLine, inventoryFileChunks, jsonLine, type InventoryFileFormat } from './inventory-file';
export { referenceChangeMessages, referencePublicationQueue } from './queue';
export {
  MATCHING_INDEX_PREFIX,
  RECORD_PAGES_PREFIX,
  REFERENCE_CHANGES_PREFIX,
  REFERENCE_FILES_PREFIX,
  type ReferenceChanges,
} from './inventory';
export { republishAfterMerge } from './workers';
export { matchingIndexesOf, readIndexFile } from './matching-indexes';
export { referenceComponentSchemas } from './schemas';
