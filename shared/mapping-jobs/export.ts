/**
 * Writing a job's results, decisions included, in the organization's export format (export-format)
 * to the bucket: every row of a completed job, or
 * the rows a cancelled or failed job processed (and charged). The chunk result files are copied in
 * order, so an export never re-reads the rows from the table.
 */
import { downloadLink, openExportFile, type ResolvedExportFormat } from '../export-format';
import { toExportRow, type MappingResult } from '../mapping';
import type { Clock } from '../platform/clock';
import { conflict } from '../platform/errors';
import type { ObjectStore } from '../platform/objects/object-store';
import { isReadable, jobObjects, type MappingJob } from './job';
import type { ExportFile } from './export-store';
import type { MappingJobStore } from './store';
import { resultsFileText } from './results-files';

export interface ExportPorts {
  jobs: Pick<MappingJobStore, 'decisions'>;
  objects: ObjectStore;
  clock: Clock;
}

export interface JobExport {
  fileUrl: string;
  expiresAt: string;
  format: ResolvedExportFormat['format'];
  compression: ResolvedExportFormat['compression'];
  fields: ResolvedExportFormat['fields'];
  rowCount: number;
}

/** Only an ended job has rows that no longer change. */
export function refuseUnendedJob(job: Pick<MappingJob, 'status'>): void {
  if (job.status === 'PENDING' || job.status === 'RUNNING') {
    throw conflict(
      `The job is ${job.status}; it can be exported once it has ended (COMPLETED, or the rows a CANCELLED or FAILED job processed).`,
    );
  }
}

/**
 * Writes the file under the export's id: the same id writes the same key, so a redelivered
 * message rewrites its own file. Built chunk by chunk as bytes, so a file of millions of rows
 * never has to fit in one string.
 */
export async function writeExportFile(
  ports: Pick<ExportPorts, 'jobs' | 'objects'>,
  job: MappingJob,
  format: ResolvedExportFormat,
  exportId: string,
): Promise<ExportFile> {
  const decided = new Map((await ports.jobs.decisions(job.id)).map((result) => [result.partnerHotelId, result]));
  const writer = await openExportFile(format);
  const context = { mappingJobId: job.id, partnerInventoryId: job.partnerInventoryId, suppliers: format.suppliers ?? [] };
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    if (!isReadable(job, { chunk })) continue;
    const file = await ports.objects.get(jobObjects.results(job, chunk));
    if (!file) throw new Error(`The results of chunk ${chunk} of job ${job.id} are missing.`);
    const rows = [];
    for (const line of resultsFileText(file).split('\n')) {
      if (line === '') continue;
      const engine = JSON.parse(line) as MappingResult;
      rows.push(toExportRow(decided.get(engine.partnerHotelId) ?? engine, context));
    }
    writer.add(rows);
  }
  const { extension, bytes, contentType } = await writer.file();
  const key = jobObjects.export(job, exportId, extension);
  await ports.objects.put(key, bytes, contentType);
  return { key, rowCount: writer.rowCount, contentType, sizeBytes: bytes.length };
}

/** The answer that hands a written file out: a download URL valid for an hour from now, saved as `mapping-<job id>` and the format's extension. */
export async function downloadOf(
  ports: Pick<ExportPorts, 'objects' | 'clock'>,
  job: Pick<MappingJob, 'id'>,
  file: ExportFile,
  format: ResolvedExportFormat,
): Promise<JobExport> {
  return {
    ...(await downloadLink(ports.objects, file.key, ports.clock.now(), `mapping-${job.id}`)),
    format: format.format,
    compression: format.compression,
    fields: format.fields,
    rowCount: file.rowCount,
  };
}
