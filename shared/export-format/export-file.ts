/**
 * A mapping file in the organization's export format (or the default: CSV, every field, comma,
 * header row, uncompressed): what a job's export and the book's export both write. Built from rows
 * as bytes, a batch at a time, so a file of millions of rows never has to fit in one string.
 */
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
// Types only: the library is loaded when an XLSX file is written (it takes longer to load than most exports take to write).
import type ExcelJS from 'exceljs';
import { MAPPING_EXPORT_COLUMNS, type MappingExportColumn, type MappingExportRow } from '../mapping';
import { formatCsvRow } from '../platform/files/csv-format';
import type { ObjectStore } from '../platform/objects/object-store';
import type { ExportFileFormat, ExportFormatConfig } from './export-format';

/** The format used when the organization has saved none. */
export const DEFAULT_EXPORT_FORMAT = { format: 'csv', delimiter: ',', includeHeader: true, compression: 'none' } as const;

/** An export format with its defaults applied: everything that decides the file's bytes. */
export interface ResolvedExportFormat {
  format: ExportFileFormat;
  fields: MappingExportColumn[];
  /**
   * The suppliers whose codes the supplierCodes field shows: those the organization was connected
   * to when the file was asked for, each a column of its own in CSV and XLSX. Absent from formats
   * recorded before files showed codes: none.
   */
  suppliers?: string[];
  delimiter: string;
  includeHeader: boolean;
  compression: 'none' | 'gzip';
}

/** The format a file is written in: the saved one (or the default), showing the codes of the `connected` suppliers. */
export function resolveFormat(saved: ExportFormatConfig | undefined, connected: readonly string[]): ResolvedExportFormat {
  const format = saved ?? DEFAULT_EXPORT_FORMAT;
  return {
    format: format.format,
    fields: saved?.includeFields ?? [...MAPPING_EXPORT_COLUMNS],
    suppliers: connected.map((supplier) => supplier.toUpperCase()),
    delimiter: format.delimiter,
    includeHeader: format.includeHeader,
    compression: format.compression,
  };
}

export function sameFormat(a: ResolvedExportFormat, b: ResolvedExportFormat): boolean {
  return (
    a.format === b.format &&
    a.delimiter === b.delimiter &&
    a.includeHeader === b.includeHeader &&
    a.compression === b.compression &&
    a.fields.length === b.fields.length &&
    a.fields.every((field, index) => b.fields[index] === field) &&
    (a.suppliers ?? []).join() === (b.suppliers ?? []).join()
  );
}

/** The header of a CSV or XLSX file: its fields, the supplier codes a column per supplier (`supplierCodes.HOTELBEDS`). */
export function columnNames(format: ResolvedExportFormat): string[] {
  return format.fields.flatMap((field) =>
    field === 'supplierCodes' ? (format.suppliers ?? []).map((supplier) => `supplierCodes.${supplier}`) : [field],
  );
}

/** A row's cells in a CSV or XLSX file, in columnNames' order. */
export function columnValues(format: ResolvedExportFormat, row: MappingExportRow): (string | number | boolean | null)[] {
  return format.fields.flatMap((field) =>
    field === 'supplierCodes' ? (format.suppliers ?? []).map((supplier) => row.supplierCodes[supplier] ?? null) : [row[field]],
  );
}

/** How long a written file's download URL is valid. */
export const EXPORT_URL_SECONDS = 3600;

/** Where export files are, in the results bucket: there to be downloaded or delivered, so the bucket forgets them after a week. */
export const EXPORTS_PREFIX = 'exports/';

/**
 * A download URL for a written file, valid EXPORT_URL_SECONDS from `now`, and when it stops being;
 * the download is saved as `name` and the file's extension (its key's: `.csv`, `.jsonl.gz`, …).
 */
export async function downloadLink(
  objects: Pick<ObjectStore, 'presignedDownloadUrl'>,
  key: string,
  now: Date,
  name: string,
): Promise<{ fileUrl: string; expiresAt: string }> {
  const fileName = `${name}${key.slice(key.indexOf('.', key.lastIndexOf('/') + 1))}`;
  return {
    fileUrl: await objects.presignedDownloadUrl(key, EXPORT_URL_SECONDS, fileName),
    expiresAt: new Date(now.getTime() + EXPORT_URL_SECONDS * 1000).toISOString(),
  };
}

const MEDIA_TYPES = { csv: 'text/csv', json: 'application/json', jsonl: 'application/x-ndjson' } as const;

/** Rows an XLSX file's one sheet holds beside its header row (Excel's limit is 1,048,576 rows). */
export const XLSX_MAX_ROWS = 1_048_575;

/** A file being written: rows added a batch at a time, in order, then the file as it is to be stored. */
export interface ExportFileWriter {
  readonly rowCount: number;
  add(rows: readonly MappingExportRow[]): void;
  /** The file: its name's extension, bytes and media type. */
  file(): Promise<{ extension: string; bytes: Buffer; contentType: string }>;
}

export async function openExportFile(format: ResolvedExportFormat): Promise<ExportFileWriter> {
  if (format.format !== 'xlsx') return new TextExportWriter({ ...format, format: format.format });
  const { default: excel } = await import('exceljs');
  return new XlsxExportWriter(excel, format);
}

/** JSON, JSON Lines or CSV, gzip-compressed or not. */
class TextExportWriter implements ExportFileWriter {
  private readonly pieces: Buffer[];
  private readonly separator: string;
  private anyLine = false;
  rowCount = 0;

  constructor(private readonly format: ResolvedExportFormat & { format: keyof typeof MEDIA_TYPES }) {
    this.separator = format.format === 'json' ? ',\n' : '\n';
    this.pieces = [Buffer.from(format.format === 'json' ? '[' : '')];
    if (format.format === 'csv' && format.includeHeader) this.addLines([formatCsvRow(columnNames(format), format.delimiter)]);
  }

  add(rows: readonly MappingExportRow[]): void {
    this.addLines(rows.map((row) => this.line(row)));
    this.rowCount += rows.length;
  }

  file(): Promise<{ extension: string; bytes: Buffer; contentType: string }> {
    const text = Buffer.concat([...this.pieces, Buffer.from(this.format.format === 'json' ? ']\n' : '\n')]);
    const gzip = this.format.compression === 'gzip';
    return Promise.resolve({
      extension: `${this.format.format}${gzip ? '.gz' : ''}`,
      bytes: gzip ? gzipSync(text) : text,
      contentType: gzip ? 'application/gzip' : MEDIA_TYPES[this.format.format],
    });
  }

  private addLines(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.pieces.push(Buffer.from(`${this.anyLine ? this.separator : ''}${lines.join(this.separator)}`));
    this.anyLine = true;
  }

  private line(row: MappingExportRow): string {
    if (this.format.format === 'csv') return formatCsvRow(columnValues(this.format, row), this.format.delimiter);
    return JSON.stringify(Object.fromEntries(this.format.fields.map((field) => [field, row[field]])));
  }
}

/**
 * One sheet, "Mappings", with the header row unless the format leaves it out. Text is written as
 * text cells, which a spreadsheet shows as they are: an id with leading zeros, a long number or a
 * value beginning with "=" is never turned into a number or a formula. Numbers (scores, distances)
 * are number cells. Written as it goes: the sheet's rows are not held as cells.
 */
class XlsxExportWriter implements ExportFileWriter {
  private readonly chunks: Buffer[] = [];
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  rowCount = 0;

  constructor(
    excel: typeof ExcelJS,
    private readonly format: ResolvedExportFormat,
  ) {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
    this.sheet = this.workbook.addWorksheet('Mappings');
    if (format.includeHeader) this.sheet.addRow(columnNames(format)).commit();
  }

  add(rows: readonly MappingExportRow[]): void {
    for (const row of rows) this.sheet.addRow(columnValues(this.format, row)).commit();
    this.rowCount += rows.length;
  }

  async file(): Promise<{ extension: string; bytes: Buffer; contentType: string }> {
    this.sheet.commit();
    await this.workbook.commit();
    return {
      extension: 'xlsx',
      bytes: Buffer.concat(this.chunks),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    };
  }
}
