/**
 * Line formats for reference inventory files: CSV (with a header row) and JSON Lines.
 * CSV columns: id,name,address,city,region,postalCode,country,lat,lon,rating,supplierCodes where
 * supplierCodes is written as `HOTELBEDS:12345;EXPEDIA:998877`.
 */
import type { ReferenceHotel } from '../mapping';
import { formatCsvRow } from '../platform/files/csv-format';

export type InventoryFileFormat = 'csv' | 'jsonl';

export const REFERENCE_CSV_COLUMNS = [
  'id',
  'name',
  'address',
  'city',
  'region',
  'postalCode',
  'country',
  'lat',
  'lon',
  'rating',
  'supplierCodes',
] as const;

export function formatSupplierCodes(codes: Record<string, string>): string {
  return Object.entries(codes)
    .map(([supplier, hotelId]) => `${supplier}:${hotelId}`)
    .join(';');
}

export function csvHeaderLine(): string {
  return `${REFERENCE_CSV_COLUMNS.join(',')}\n`;
}

export function csvLine(hotel: ReferenceHotel): string {
  const values = [
    hotel.id,
    hotel.name,
    hotel.address,
    hotel.city,
    hotel.region,
    hotel.postalCode,
    hotel.country,
    hotel.lat,
    hotel.lon,
    hotel.rating,
    formatSupplierCodes(hotel.supplierCodes),
  ];
  return `${formatCsvRow(values)}\n`;
}

export function jsonLine(hotel: ReferenceHotel): string {
  return `${JSON.stringify(hotel)}\n`;
}

/** The file's text, streamed in chunks of lines (a header first for CSV). */
export function* inventoryFileChunks(
  hotels: Iterable<ReferenceHotel>,
  format: InventoryFileFormat,
  linesPerChunk = 2000,
): Generator<string> {
  const formatLine = format === 'csv' ? csvLine : jsonLine;
  let chunk = format === 'csv' ? csvHeaderLine() : '';
  let lines = 0;
  for (const hotel of hotels) {
    chunk += formatLine(hotel);
    if (++lines === linesPerChunk) {
      yield chunk;
      chunk = '';
      lines = 0;
    }
  }
  if (chunk) yield chunk;
}
