/** Flat form of a mapping result, one value per export column. */
import { supplierCodesShown } from './reference-facts';
import type { MappingResult, ReferenceHotelFacts } from './types';

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
  'mappingJobId',
  'partnerInventoryId',
  'referenceHotelCity',
  'referenceHotelCountryCode',
  'supplierCodes',
] as const;

export type MappingExportColumn = (typeof MAPPING_EXPORT_COLUMNS)[number];
/** A row's values: one per column, the supplier codes an object (a column per supplier in CSV and XLSX). */
export type MappingExportRow = Record<Exclude<MappingExportColumn, 'supplierCodes'>, string | number | boolean | null> & {
  supplierCodes: Record<string, string>;
};

/** What a row is exported with besides its result: the job and inventory it came from (null when not one job's), the suppliers whose codes it shows. */
export interface ExportRowContext {
  mappingJobId: string | null;
  partnerInventoryId: string | null;
  suppliers: readonly string[];
}

/** Runner-up candidates as "referenceId:score" pairs separated by ";" (best first). */
export function formatCandidates(result: Pick<MappingResult, 'candidates'>): string {
  return result.candidates.map((candidate) => `${candidate.referenceHotelId}:${candidate.score}`).join(';');
}

/** What a row is exported from: a job's result (a person's decision included) or a book's entry. */
export type ExportedResult = Pick<
  MappingResult,
  'partnerHotelId' | 'partnerHotelName' | 'referenceHotelId' | 'referenceHotelName' | 'score' | 'evidence' | 'candidates'
> &
  ReferenceHotelFacts & { status: string; method: string | null };

export function toExportRow(result: ExportedResult, context: ExportRowContext): MappingExportRow {
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
    mappingJobId: context.mappingJobId,
    partnerInventoryId: context.partnerInventoryId,
    referenceHotelCity: result.referenceHotelCity ?? null,
    referenceHotelCountryCode: result.referenceHotelCountryCode ?? null,
    supplierCodes: supplierCodesShown(result.supplierCodes, context.suppliers),
  };
}
