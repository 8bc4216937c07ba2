/**
 * A mapping file in the organization's export format (or the default: CSV, every field, comma,
 * header row, uncompressed): what a job's export and the book's export both write. Built from rows
 * as bytes, a batch at a time, so a file of millions of rows never has to fit in one string.
 */
import { gzipSync } from 'node:zlib';
import { MAPPING_EXPORT_COLUMNS, type MappingExportColumn, type MappingExportRow } from '../mapping';
import { formatCsvRow } from '../platform/files/csv-format';
import type { ObjectStore } from '../platform/objects/object-store';
import type { ExportFormatConfig } from './export-format';

/** The format used when the organization has saved none. */
export const DEFAULT_EXPORT_FORMAT = { format: 'csv', delimiter: ',', includeHeader: true, compression: 'none' } as const;

/** An export format with its defaults applied: everything that decides the file's bytes. */
export interface ResolvedExportFormat {
  format: 'json' | 'csv' | 'jsonl';
  fields: MappingExportColumn[];
  delimiter: string;
  includeHeader: boolean;
  compression: 'none' | 'gzip';
}

export function resolveFormat(saved: ExportFormatConfig | undefined): ResolvedExportFormat {
  const format = saved ?? DEFAULT_EXPORT_FORMAT;
  return {
    format: format.format,
    fields: saved?.includeFields ?? [...MAPPING_EXPORT_COLUMNS],
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
    a.fields.every((field, index) => b.fields[index] === field)
  );
}

/** How long a written file's download URL is valid. */
export const EXPORT_URL_SECONDS = 3600;

/** A download URL for a written file, valid EXPORT_URL_SECONDS from `now`, and when it stops being. */
export async function downloadLink(objects: Pick<ObjectStore, 'presignedDownloadUrl'>, key: string, now: Date): Promise<{ fileUrl: string; expiresAt: string }> {
  return {
    fileUrl: await objects.presignedDownloadUrl(key, EXPORT_URL_SECONDS),
    expiresAt: new Date(now.getTime() + EXPORT_URL_SECONDS * 1000).toISOString(),
  };
}

const MEDIA_TYPES = { csv: 'text/csv', json: 'application/json', jsonl: 'application/x-ndjson' } as const;

/** The file's bytes, rows added a batch at a time, in order. */
export class ExportFileWriter {
  private readonly pieces: Buffer[];
  private readonly separator: string;
  private anyLine = false;
  rowCount = 0;

  constructor(private readonly format: ResolvedExportFormat) {
    this.separator = format.format === 'json' ? ',\n' : '\n';
    this.pieces = [Buffer.from(format.format === 'json' ? '[' : '')];
    if (format.format === 'csv' && format.includeHeader) this.addLines([formatCsvRow(format.fields, format.delimiter)]);
  }

  add(rows: readonly MappingExportRow[]): void {
    this.addLines(rows.map((row) => this.line(row)));
    this.rowCount += rows.length;
  }

  /** The file as it is to be stored: its name's extension, bytes and media type. */
  file(): { extension: string; bytes: Buffer; contentType: string } {
    const text = Buffer.concat([...this.pieces, Buffer.from(this.format.format === 'json' ? ']\n' : '\n')]);
    const gzip = this.format.compression === 'gzip';
    return {
      extension: `${this.format.format}${gzip ? '.gz' : ''}`,
      bytes: gzip ? gzipSync(text) : text,
      contentType: gzip ? 'application/gzip' : MEDIA_TYPES[this.format.format],
    };
  }

  private addLines(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.pieces.push(Buffer.from(`${this.anyLine ? this.separator : ''}${lines.join(this.separator)}`));
    this.anyLine = true;
  }

  private line(row: MappingExportRow): string {
    if (this.format.format === 'csv') return formatCsvRow(this.format.fields.map((field) => row[field]), this.format.delimiter);
    return JSON.stringify(Object.fromEntries(this.format.fields.map((field) => [field, row[field]])));
  }
}
