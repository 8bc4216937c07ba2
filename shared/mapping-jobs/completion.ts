/**
 * Telling a job's completion. When the organization listens (an active delivery destination, or a
 * webhook taking MAPPING_COMPLETED), the job's export is written first, in its export format: the
 * completion transaction queues that work (completeJob), which writes the file, starts its
 * deliveries, and only then records MAPPING_COMPLETED, carrying the file's link and where it is
 * delivered. Nobody listening, the event is recorded at once without them, and no file is written.
 * Repeated on a redelivery, the same file is written again and the event, recorded under the same
 * key, is not told twice.
 */
import type { ExportFormatConfig } from '../export-format';
import { resolveFormat, XLSX_MAX_ROWS } from '../export-format';
import type { PartnerEvent } from '../events';
import { deliveredFileName, type CompletedExport, type DeliveryPlaced } from '../file-deliveries';
import { log } from '../platform/logging';
import { downloadOf, writeExportFile, type ExportPorts, type JobExport } from './export';
import { EXPORT_MAX_ROWS } from './export-preparation';
import type { MappingJob } from './job';
import type { CompletionMessage } from './queues';
import type { MappingJobStore } from './store';

/** The completion's own export file: one per job, rewritten whole by a repeat. */
export const COMPLETION_EXPORT_ID = 'completed';

export interface CompletionPorts extends ExportPorts {
  jobs: ExportPorts['jobs'] & Pick<MappingJobStore, 'get' | 'recordEvent'>;
  /** The organization's saved export format and the suppliers whose codes its files show. */
  formatOf(organizationId: string): Promise<{ saved: ExportFormatConfig | undefined; connected: readonly string[] }>;
  startDeliveries(completed: CompletedExport): Promise<DeliveryPlaced[]>;
}

/** What the event tells of the file. */
export type CompletionExport = JobExport & { fileName: string };

/** Writes the completed job's export, starts its deliveries, then records its completion event. */
export async function tellCompletion(ports: CompletionPorts, message: CompletionMessage): Promise<void> {
  const job = await ports.jobs.get(message.organizationId, message.mappingJobId);
  if (job?.status !== 'COMPLETED') return;
  const { saved, connected } = await ports.formatOf(job.organizationId);
  const format = resolveFormat(saved, connected);
  const rows = job.counts.processed;
  if (rows > EXPORT_MAX_ROWS || (format.format === 'xlsx' && rows > XLSX_MAX_ROWS)) {
    log('warn', 'completed job too large for one export file: told without one', { mappingJobId: job.id, rows, format: format.format });
    await ports.jobs.recordEvent(completionEvent(job, job.completedAt!, null, []));
    return;
  }
  const file = await writeExportFile(ports, job, format, COMPLETION_EXPORT_ID);
  const deliveries = await ports.startDeliveries({
    organizationId: job.organizationId,
    mappingJobId: job.id,
    fileKey: file.key,
    contentType: file.contentType,
    sizeBytes: file.sizeBytes,
  });
  const download = await downloadOf(ports, job, file, format);
  await ports.jobs.recordEvent(
    completionEvent(job, job.completedAt!, { ...download, fileName: deliveredFileName(job.id, file.key) }, deliveries),
  );
}

/** A completion whose export could not be written (every attempt failed): told without the file. */
export async function tellCompletionWithoutFile(ports: Pick<CompletionPorts, 'jobs'>, message: CompletionMessage): Promise<void> {
  const job = await ports.jobs.get(message.organizationId, message.mappingJobId);
  if (job?.status !== 'COMPLETED') return;
  log('error', 'completed job told without its export file', { mappingJobId: job.id });
  await ports.jobs.recordEvent(completionEvent(job, job.completedAt!, null, []));
}

export function completionEvent(
  job: MappingJob,
  completedAt: string,
  file: CompletionExport | null,
  deliveries: readonly DeliveryPlaced[],
): PartnerEvent {
  return {
    // One event per job, whatever the deliveries: the id and time come from the job.
    id: `${job.id}-completed`,
    type: 'MAPPING_COMPLETED',
    organizationId: job.organizationId,
    occurredAt: completedAt,
    data: {
      mappingJobId: job.id,
      partnerInventoryId: job.partnerInventoryId,
      mode: job.mode,
      status: 'COMPLETED',
      counts: job.counts,
      createdAt: job.createdAt,
      completedAt,
      export: file,
      deliveries: [...deliveries],
    },
  };
}
