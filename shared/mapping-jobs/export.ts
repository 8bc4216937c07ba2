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

export const EXPORT_URL_SECONDS = 3600;

/** The format used when the organization has saved none. */
export const DEFAULT_EXPORT_FORMAT = { format: 'csv', delimiter: ',', includeHeader: true, compression: 'none' } as const;

export interface ExportPorts {
  jobs: Pick<MappingJobStore, 'decisions'>;
  objects: ObjectStore;
  clock: Clock;
  newId: () => string;
}

export interface JobExport {
  fileUrl: string;
  expiresAt: string;
  format: 'json' | 'csv' | 'jsonl';
  compression: 'none' | 'gzip';
  fields: MappingExportColumn[];
  rowCount: number;
}

type Format = Pick<ExportFormatConfig, 'format' | 'delimiter' | 'includeHeader' | 'compression'> & { includeFields?: MappingExportColumn[] };

export async function exportJob(ports: ExportPorts, job: MappingJob, saved: ExportFormatConfig | undefined): Promise<JobExport> {
  if (job.status === 'PENDING' || job.status === 'RUNNING') {
    throw conflict(`The job is ${job.status}; it can be exported once it has ended (COMPLETED, or the rows a CANCELLED or FAILED job processed).`);
  }
  const format: Format = saved ?? DEFAULT_EXPORT_FORMAT;
  const fields = format.includeFields ?? [...MAPPING_EXPORT_COLUMNS];
  const decided = new Map((await ports.jobs.decisions(job.id)).map((result) => [result.partnerHotelId, result]));

  const lines: string[] = [];
  if (format.format === 'csv' && format.includeHeader) lines.push(formatCsvRow(fields, format.delimiter));
  let rowCount = 0;
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    if (!isReadable(job, { chunk })) continue;
    const file = await ports.objects.get(jobObjects.results(job, chunk));
    if (!file) throw new Error(`The results of chunk ${chunk} of job ${job.id} are missing.`);
    for (const line of file.toString('utf8').split('\n')) {
      if (line === '') continue;
      const engine = JSON.parse(line) as MappingResult;
      const result = decided.get(engine.partnerHotelId) ?? engine;
      lines.push(formatRow(format, fields, result));
      rowCount++;
    }
  }
  const text = format.format === 'json' ? `[${lines.join(',\n')}]\n` : `${lines.join('\n')}\n`;
  const gzip = format.compression === 'gzip';
  const key = jobObjects.export(job, ports.newId(), `${format.format}${gzip ? '.gz' : ''}`);
  await ports.objects.put(key, gzip ? gzipSync(text) : text, gzip ? 'application/gzip' : MEDIA_TYPES[format.format]);
  return {
    fileUrl: await ports.objects.presignedDownloadUrl(key, EXPORT_URL_SECONDS),
    expiresAt: new Date(ports.clock.now().getTime() + EXPORT_URL_SECONDS * 1000).toISOString(),
    format: format.format,
    compression: format.compression,
    fields,
    rowCount,
  };
}

const MEDIA_TYPES = { csv: 'text/csv', json: 'application/json', jsonl: 'application/x-ndjson' } as const;

function formatRow(format: Format, fields: readonly MappingExportColumn[], result: MappingResult | StoredResult): string {
  const row = toExportRow(result as MappingResult);
  if (format.format === 'csv') return formatCsvRow(fields.map((field) => row[field]), format.delimiter);
  return JSON.stringify(Object.fromEntries(fields.map((field) => [field, row[field]])));
}
