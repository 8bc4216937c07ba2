/**
 * Checks the sample hotel file sent with a supplier request: it must really be CSV, JSON (an
 * array of objects) or XLSX, and hold at least one readable data row.
 */
import type { TabularFormat } from '../platform/files/formats';
import { readTabular, TabularParseError } from '../platform/files/tabular';
import { invalidInput, unsupportedFormat } from '../platform/errors';

export const SUPPLIER_FILE_FORMATS = ['csv', 'json', 'xlsx'] as const;
type SupplierFileFormat = (typeof SUPPLIER_FILE_FORMATS)[number];

const FORMAT_BY_EXTENSION: Record<string, SupplierFileFormat> = { csv: 'csv', json: 'json', xlsx: 'xlsx' };
const FORMAT_BY_MEDIA_TYPE: Record<string, SupplierFileFormat> = {
  'text/csv': 'csv',
  'application/json': 'json',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

export interface SupplierFileSummary {
  format: SupplierFileFormat;
  rowCount: number;
}

export async function inspectSupplierFile(file: {
  fileName: string;
  contentType: string;
  data: Buffer;
}): Promise<SupplierFileSummary> {
  const format = fileFormat(file.fileName, file.contentType);
  if (!format) {
    throw unsupportedFormat(`The file "${file.fileName}" is not CSV, JSON or Excel .xlsx.`);
  }
  if (file.data.length === 0) throw invalidInput('The file is empty.');
  let rowCount = 0;
  let firstError: string | undefined;
  try {
    for await (const row of readTabular(file.data, format satisfies TabularFormat)) {
      if ('record' in row) rowCount++;
      else firstError ??= `line ${row.line}: ${row.error}`;
    }
  } catch (error) {
    if (error instanceof TabularParseError) {
      throw invalidInput(`The file could not be read as ${format.toUpperCase()}: ${error.message}`);
    }
    throw error;
  }
  if (rowCount === 0) {
    throw invalidInput(`The file has no readable data rows${firstError ? ` (${firstError})` : ''}.`);
  }
  return { format, rowCount };
}

function fileFormat(fileName: string, contentType: string): SupplierFileFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot >= 0) return FORMAT_BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()];
  return FORMAT_BY_MEDIA_TYPE[contentType.split(';')[0]!.trim().toLowerCase()];
}
