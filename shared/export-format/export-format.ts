/**
 * The organization's one export format configuration for mapping result files.
 * Defaults (spec "Export format configuration"): every field, delimiter ",", header row on,
 * no compression. `delimiter` only affects CSV, `includeHeader` CSV and XLSX; an XLSX file is a
 * compressed archive already, so it takes no compression.
 */
import type { MappingExportColumn } from '../mapping';

export const EXPORT_FORMATS = ['json', 'csv', 'jsonl', 'xlsx'] as const;
export const EXPORT_COMPRESSIONS = ['none', 'gzip'] as const;

/** The columns of a mapping result file, in file order: the engine's export row. */

export type ExportFileFormat = (typeof EXPORT_FORMATS)[number];
export type ExportCompression = (typeof EXPORT_COMPRESSIONS)[number];
export type MappingResultField = MappingExportColumn;

export interface ExportFormatInput {
  format: ExportFileFormat;
  includeFields?: MappingResultField[];
  delimiter?: string;
  includeHeader?: boolean;
  compression?: ExportCompression;
}

export interface ExportFormatConfig {
  id: string;
  format: ExportFileFormat;
  /** Absent means every field. */
  includeFields?: MappingResultField[];
  delimiter: string;
  includeHeader: boolean;
  compression: ExportCompression;
  updatedAt: string;
}

export const EXPORT_FORMAT_DEFAULTS = { delimiter: ',', includeHeader: true, compression: 'none' } as const;

/** A full replacement of the configuration: what the caller sent, defaults for the rest. */
export function resolveExportFormat(input: ExportFormatInput, id: string, now: Date): ExportFormatConfig {
  return {
    id,
    format: input.format,
    includeFields: input.includeFields,
    delimiter: input.delimiter ?? EXPORT_FORMAT_DEFAULTS.delimiter,
    includeHeader: input.includeHeader ?? EXPORT_FORMAT_DEFAULTS.includeHeader,
    compression: input.compression ?? EXPORT_FORMAT_DEFAULTS.compression,
    updatedAt: now.toISOString(),
  };
}
