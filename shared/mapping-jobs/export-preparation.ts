/**
 * Which exports answer at once and which a worker prepares. API Gateway cuts every request at 29 s,
 * so an export is written within the request only when its rows fit a 20 s budget at the slowest
 * rate measured (`npm run bench:export`: 9,000 to 26,000 rows/s on the local runtime); a larger
 * one is handed to the `mapping-exports` queue, and the request answers 202 with Retry-After.
 * Repeating the request answers 202 while it is prepared, then 200 with its URL.
 *
 * One export per job is prepared at a time, kept on the job's export item (export-store.ts), through
 * the lifecycle every prepared export has (export-format/prepared-export.ts). A READY export is
 * current while it has the same format, no review came since it was asked for, and its file is
 * still kept (the bucket removes exports after 7 days). A format saved while one is prepared does
 * not stop it: it is finished in the format it was asked in, and the request after it prepares the
 * new format.
 */
import type { ExportFormatConfig } from '../export-format';
import { defineSettings } from '../platform/config';
import { conflict } from '../platform/errors';
import { log } from '../platform/logging';
import type { Queue } from '../platform/queue/queue';
import {
  prepareNamedExport,
  requestPreparedExport,
  resolveFormat,
  sameFormat,
  XLSX_MAX_ROWS,
  type ExportHolder,
  type ResolvedExportFormat,
} from '../export-format';
import { downloadOf, refuseUnendedJob, writeExportFile, type ExportPorts, type JobExport } from './export';
import type { ExportState, ExportStore, PreparedExport } from './export-store';
import type { MappingJob } from './job';
import { mappingExportQueue, type ExportMessage } from './queues';
import type { MappingJobStore } from './store';

/** Rows written within the request: 20 s at 9,000 rows/s is 180,000; half of that leaves room for Lambda's slower reads. */
export const EXPORT_SYNC_MAX_ROWS = 80_000;
/** Rows one file takes: what the worker writes within its timeout at the slowest rate, with half to spare. */
export const EXPORT_MAX_ROWS = 4_000_000;
/** The slowest export rate measured, to tell the partner when to ask again. */
const EXPORT_ROWS_PER_SECOND = 9_000;
/** A ready export is handed out again until a day before the bucket removes its file. */
const READY_REUSE_DAYS = 6;
/** A worker has ended by its timeout: an export still PREPARING twice that long after it was asked for is prepared again. */
const PREPARING_OVERDUE_SECONDS = 2 * mappingExportQueue.lambda.timeoutSeconds;

/** Tests and a local run may lower the row count above which an export is prepared by the worker. */
export const EXPORT_SETTINGS = defineSettings({ syncMaxRows: 'EXPORT_SYNC_MAX_ROWS' });

export type ExportPlan = 'now' | 'prepare' | 'too_large';

/** How the export of a job with this many rows is made. */
export function exportPlan(rows: number, syncMaxRows: number): ExportPlan {
  if (rows <= syncMaxRows) return 'now';
  return rows <= EXPORT_MAX_ROWS ? 'prepare' : 'too_large';
}

export interface PreparationPorts extends ExportPorts {
  jobs: Pick<MappingJobStore, 'get' | 'decisions'>;
  exports: Pick<ExportStore, 'get' | 'claim' | 'release' | 'markReady'>;
  queue: Queue<ExportMessage>;
  newId: () => string;
  syncMaxRows: number;
}

/** An export being prepared, as the 202 answer shows it. */
export interface ExportInPreparation {
  status: 'PREPARING';
  requestedAt: string;
  format: ResolvedExportFormat['format'];
  compression: ResolvedExportFormat['compression'];
  fields: ResolvedExportFormat['fields'];
  rowCount: number;
}

export type ExportAnswer = { status: 200; file: JobExport } | { status: 202; preparing: ExportInPreparation; retryAfterSeconds: number };

/** `saved`: the organization's export format; `connected`: the suppliers whose codes the file shows. */
export async function requestExport(
  ports: PreparationPorts,
  job: MappingJob,
  saved: ExportFormatConfig | undefined,
  connected: readonly string[],
): Promise<ExportAnswer> {
  refuseUnendedJob(job);
  const format = resolveFormat(saved, connected);
  const rows = job.counts.processed;
  const plan = exportPlan(rows, ports.syncMaxRows);
  if (plan === 'too_large') {
    throw conflict(
      `The job has ${rows} rows; one export file holds at most ${EXPORT_MAX_ROWS}. Read its rows with GET /api/v1/mapping/${job.id}/results.`,
    );
  }
  if (format.format === 'xlsx' && rows > XLSX_MAX_ROWS) {
    throw conflict(
      `The job has ${rows} rows; an XLSX sheet holds at most ${XLSX_MAX_ROWS}. Choose csv or jsonl (PUT /api/v1/export-format), or read its rows with GET /api/v1/mapping/${job.id}/results.`,
    );
  }
  if (plan === 'now') {
    return { status: 200, file: await downloadOf(ports, job, await writeExportFile(ports, job, format, ports.newId()), format) };
  }
  const answer = await requestPreparedExport(jobExport(ports, job, format));
  const ready = answer.status === 'READY' && answer.held.file;
  if (ready) return { status: 200, file: await downloadOf(ports, job, ready, answer.held.format) };
  return preparing(ports, answer.held, rows);
}

/** The job's export as the lifecycle holds it, for a request in `format`. */
function jobExport(ports: PreparationPorts, job: MappingJob, format: ResolvedExportFormat): ExportHolder<PreparedExport> {
  // The decisions version read with the export: what a ready one is checked against, and a new one records.
  let state: ExportState = { decisionsVersion: 0 };
  return {
    held: async () => (state = await ports.exports.get(job.id)).current,
    idOf: (held) => held.id,
    isCurrent: (ready) => ready.file !== undefined && isCurrent(ports, state, ready, ready.file.readyAt, format),
    overdueSeconds: PREPARING_OVERDUE_SECONDS,
    next: async () => ({
      id: ports.newId(),
      status: 'PREPARING',
      format,
      decisionsVersion: state.decisionsVersion,
      requestedAt: ports.clock.now().toISOString(),
    }),
    claim: (next, replaced) => ports.exports.claim(job.id, next, replaced?.id),
    send: (next) => ports.queue.send({ organizationId: job.organizationId, mappingJobId: job.id, exportId: next.id }),
    release: (next) => ports.exports.release(job.id, next.id),
    now: () => ports.clock.now(),
  };
}

/** The worker: writes the file of the export the message names, unless it has been replaced or is ready already. */
export async function prepareExport(ports: PreparationPorts, message: ExportMessage): Promise<void> {
  const job = await ports.jobs.get(message.organizationId, message.mappingJobId);
  if (!job) return;
  const held = { held: async () => (await ports.exports.get(job.id)).current, idOf: (current: PreparedExport) => current.id };
  await prepareNamedExport(held, message.exportId, async (current) => {
    const started = performance.now();
    const file = await writeExportFile(ports, job, current.format, current.id);
    await ports.exports.markReady(job.id, current.id, { ...file, readyAt: ports.clock.now().toISOString() });
    // The rate in AWS, against the one EXPORT_SYNC_MAX_ROWS assumes.
    log('info', 'export prepared', {
      mappingJobId: job.id,
      exportId: current.id,
      rows: file.rowCount,
      format: current.format.format,
      durationMs: Math.round(performance.now() - started),
    });
  });
}

function isCurrent(
  ports: Pick<PreparationPorts, 'clock'>,
  state: ExportState,
  ready: PreparedExport,
  readyAt: string,
  format: ResolvedExportFormat,
): boolean {
  const keptUntil = new Date(readyAt).getTime() + READY_REUSE_DAYS * 86_400_000;
  return sameFormat(ready.format, format) && ready.decisionsVersion === state.decisionsVersion && ports.clock.now().getTime() < keptUntil;
}

function preparing(ports: Pick<PreparationPorts, 'clock'>, prepared: PreparedExport, rows: number): ExportAnswer {
  const elapsed = (ports.clock.now().getTime() - new Date(prepared.requestedAt).getTime()) / 1000;
  const left = Math.ceil(rows / EXPORT_ROWS_PER_SECOND - elapsed);
  return {
    status: 202,
    preparing: {
      status: 'PREPARING',
      requestedAt: prepared.requestedAt,
      format: prepared.format.format,
      compression: prepared.format.compression,
      fields: prepared.format.fields,
      rowCount: rows,
    },
    retryAfterSeconds: Math.min(60, Math.max(5, left)),
  };
}
