/**
 * Writing a job's results, decisions included, in the organization's export format (or the default:
 * CSV, every field, comma, header row, uncompressed) to the bucket: every row of a completed job, or
 * the rows a cancelled or failed job processed (and charged). The chunk result files are copied in
 * order, so an export never re-reads the rows from the table.
 */
import { gzipSync } from 'node:zlib';
import type { ExportFormatConfig } from '../export-format';
import { MAPPING_EXPORT_COLUMNS, toExportRow, type MappingExportColumn, type MappingResult } from '../mapping';
import type { Clock } from '../platform/clock';
import { conflict } from '../platform/errors';
import { formatCsvRow } from '../platform/files/csv-format';
import type { ObjectStore } from '../platform/objects/object-store';
import { isReadable, jobObjects, type MappingJob, type StoredResult } from './job';
import type { MappingJobStore } from './store';
import { resultsFileText } from './claims';

export const EXPORT_URL_SECONDS = 3600;

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

export interface ExportPorts {
  jobs: Pick<MappingJobStore, 'decisions'>;
  objects: ObjectStore;
  clock: Clock;
}

/** A written export file. */
export interface ExportFile {
  key: string;
  rowCount: number;
}

export interface JobExport {
  fileUrl: string;
  expiresAt: string;
  format: ResolvedExportFormat['format'];
  compression: ResolvedExportFormat['compression'];
  fields: MappingExportColumn[];
  rowCount: number;
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

/** Only an ended job has rows that no longer change. */
export function refuseUnendedJob(job: Pick<MappingJob, 'status'>): void {
  if (job.status === 'PENDING' || job.status === 'RUNNING') {
    throw conflict(`The job is ${job.status}; it can be exported once it has ended (COMPLETED, or the rows a CANCELLED or FAILED job processed).`);
  }
}

/**
 * Writes the file under the export's id: the same id writes the same key, so a redelivered
 * message rewrites its own file. Built chunk by chunk as bytes, so a file of millions of rows
 * never has to fit in one string.
 */
export async function writeExportFile(ports: Pick<ExportPorts, 'jobs' | 'objects'>, job: MappingJob, format: ResolvedExportFormat, exportId: string): Promise<ExportFile> {
  const decided = new Map((await ports.jobs.decisions(job.id)).map((result) => [result.partnerHotelId, result]));
  const separator = format.format === 'json' ? ',\n' : '\n';
  const pieces: Buffer[] = [Buffer.from(format.format === 'json' ? '[' : '')];
  let anyLine = false;
  const add = (lines: readonly string[]) => {
    if (lines.length === 0) return;
    pieces.push(Buffer.from(`${anyLine ? separator : ''}${lines.join(separator)}`));
    anyLine = true;
  };

  if (format.format === 'csv' && format.includeHeader) add([formatCsvRow(format.fields, format.delimiter)]);
  let rowCount = 0;
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    if (!isReadable(job, { chunk })) continue;
    const file = await ports.objects.get(jobObjects.results(job, chunk));
    if (!file) throw new Error(`The results of chunk ${chunk} of job ${job.id} are missing.`);
    const lines: string[] = [];
    for (const line of resultsFileText(file).split('\n')) {
      if (line === '') continue;
      const engine = JSON.parse(line) as MappingResult;
      lines.push(formatRow(format, decided.get(engine.partnerHotelId) ?? engine));
    }
    add(lines);
    rowCount += lines.length;
  }
  pieces.push(Buffer.from(format.format === 'json' ? ']\n' : '\n'));

  const text = Buffer.concat(pieces);
  const gzip = format.compression === 'gzip';
  const key = jobObjects.export(job, exportId, `${format.format}${gzip ? '.gz' : ''}`);
  await ports.objects.put(key, gzip ? gzipSync(text) : text, gzip ? 'application/gzip' : MEDIA_TYPES[format.format]);
  return { key, rowCount };
}

/** The answer that hands a written file out: a download URL valid for EXPORT_URL_SECONDS from now. */
export async function downloadOf(ports: Pick<ExportPorts, 'objects' | 'clock'>, file: ExportFile, format: ResolvedExportFormat): Promise<JobExport> {
  return {
    fileUrl: await ports.objects.presignedDownloadUrl(file.key, EXPORT_URL_SECONDS),
    expiresAt: new Date(ports.clock.now().getTime() + EXPORT_URL_SECONDS * 1000).toISOString(),
    format: format.format,
    compression: format.compression,
    fields: format.fields,
    rowCount: file.rowCount,
  };
}

const MEDIA_TYPES = { csv: 'text/csv', json: 'application/json', jsonl: 'application/x-ndjson' } as const;

function formatRow(format: ResolvedExportFormat, result: MappingResult | StoredResult): string {
  const row = toExportRow(result as MappingResult);
  if (format.format === 'csv') return formatCsvRow(format.fields.map((field) => row[field]), format.delimiter);
  return JSON.stringify(Object.fromEntries(format.fields.map((field) => [field, row[field]])));
}
