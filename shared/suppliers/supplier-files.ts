/**
 * Checks the sample hotel file sent with a supplier request: it must really be CSV, JSON (an
 * array of objects) or XLSX, and hold at least one readable data row.
 */
import { detectTabularFormat, type TabularFormat } from '../platform/files/formats';
import { readTabular, TabularParseError } from '../platform/files/tabular';
import { invalidInput, unsupportedFormat } from '../platform/errors';

export const SUPPLIER_FILE_FORMATS = ['csv', 'json', 'xlsx'] as const;
type SupplierFileFormat = (typeof SUPPLIER_FILE_FORMATS)[number];

export interface SupplierFileSummary {
  format: SupplierFileFormat;
  rowCount: number;
}

export async function inspectSupplierFile(file: { fileName: string; contentType: string; data: Buffer }): Promise<SupplierFileSummary> {
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

/** The upload rule every file route shares (detectTabularFormat), narrowed to what a sample may be. */
function fileFormat(fileName: string, contentType: string): SupplierFileFormat | undefined {
  const format = detectTabularFormat(fileName, contentType);
  return (SUPPLIER_FILE_FORMATS as readonly string[]).includes(format ?? '') ? (format as SupplierFileFormat) : undefined;
}
