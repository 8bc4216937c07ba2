/**
 * Hotel mapping engine: pure TypeScript, no I/O beyond the inventory readers' streams.
 *
 *   const index = buildMatchingIndex(referenceHotels);       // once; serializeMatchingIndex() to reuse
 *   const results = mapHotels(index, partnerHotels, { mode: 'HYBRID' });
 *
 * or row by row: `new HotelMatcher(index, { mode }).match(partnerHotel)`.
 */
export type { HotelDescription, PartnerHotel, ReferenceHotel } from './hotels';
export type {
  MappingMode,
  MappingStatus,
  MatchMethod,
  MatchEvidence,
  CandidateSummary,
  MappingResult,
  MappingOptions,
  ReferenceHotelFacts,
  ReferenceHotelShown,
} from './types';
export {
  hasCodeAtAny,
  referenceFacts,
  referenceFactsIn,
  referenceFactsOfRecord,
  referenceFactsShown,
  sameReferenceFacts,
  supplierCodesShown,
  withReferenceFacts,
} from './reference-facts';
export { MAPPING_MODES, matchesBySupplierCode, SCORE_ORDERS, type ScoreOrder } from './types';
export { MatchingIndex } from './matching-index';
export { buildMatchingIndex } from './matching-index-builder';
export { serializeMatchingIndex, deserializeMatchingIndex } from './matching-index-snapshot';
export { HotelMatcher } from './matcher';
export { ENGINE_VERSION, FACTLESS_ENGINE_VERSION, mapHotels, matchHotels } from './engine';
export { decisionThresholds } from './matcher';
export { resolveClaimsAmong, resolveSharedClaims, sharedClaims } from './shared-claims';
export { REASON_CODE_MEANINGS, REASON_CODES, reasonCodeOf, type ReasonCode } from './reasons';
export { CONFIDENCE_CUTOFFS, CONFIDENCE_LEVELS, confidenceOf, rightProbability, type Confidence } from './confidence';
export { MATCH_MODEL, type MatchModel } from './match-decision';
export {
  toExportRow,
  formatCandidates,
  MAPPING_EXPORT_COLUMNS,
  type ExportRowContext,
  type MappingExportRow,
  type MappingExportColumn,
} from './export-row';
export {
  readPartnerInventory,
  readReferenceInventory,
  parseSupplierCodes,
  type InventoryRow,
  type PartnerInventoryOptions,
} from './inventory';
export { toCountryCode } from './countries';
export { distanceMeters } from './similarity';
export {
  answerSearchFields,
  CandidateSchema,
  MatchEvidenceSchema,
  referenceHotelFactFields,
  ScoreParam,
  SearchTotal,
} from './result-schemas';
export {
  answerColumnsFrom,
  answerColumnsOf,
  answerColumnTexts,
  answerMarks,
  answerMatches,
  answerSearchOf,
  SEARCH_MAX_SUPPLIERS,
  type AnswerColumns,
  type AnswerSearch,
  type AnswerSearchQuery,
  type SearchedAnswer,
} from './answer-search';
