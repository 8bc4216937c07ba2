/** Flat form of a mapping result, one value per export column. */
import type { MappingResult } from './types';

export const MAPPING_EXPORT_COLUMNS = [
  'partnerHotelId',
  'partnerHotelName',
  'referenceHotelId',
  'referenceHotelName',
  'status',
  'method',
  'score',
  'nameSimilarity',
  'distanceMeters',
  'addressMatch',
  'postalCodeMatch',
  'candidates',
] as const;

export type MappingExportColumn = (typeof MAPPING_EXPORT_COLUMNS)[number];
export type MappingExportRow = Record<MappingExportColumn, string | number | boolean | null>;

/** Runner-up candidates as "referenceId:score" pairs separated by ";" (best first). */
export function formatCandidates(result: MappingResult): string {
  return result.candidates.map((candidate) => `${candidate.referenceHotelId}:${candidate.score}`).join(';');
}

export function toExportRow(result: MappingResult): MappingExportRow {
  return {
    partnerHotelId: result.partnerHotelId,
    partnerHotelName: result.partnerHotelName,
    referenceHotelId: result.referenceHotelId,
    referenceHotelName: result.referenceHotelName,
    status: result.status,
    method: result.method,
    score: result.score,
    nameSimilarity: result.evidence?.nameSimilarity ?? null,
    distanceMeters: result.evidence?.distanceMeters ?? null,
    addressMatch: result.evidence?.addressMatch ?? null,
    postalCodeMatch: result.evidence?.postalCodeMatch ?? null,
    candidates: formatCandidates(result),
  };
}
