/**
 * Creating, running, completing and failing mapping jobs: the rules, over ports.
 */
import type { Metering } from '../billing';
import type { MappingMode, MappingResult } from '../mapping';
import { matchesBySupplierCode } from '../mapping';
import type { PartnerInventory } from '../partner-inventories';
import type { Clock } from '../platform/clock';
import { conflict, invalidInput, notFound } from '../platform/errors';
import { log } from '../platform/logging';
import { recordCount, recordMilliseconds } from '../platform/metrics';
import type { Queue, Scheduler } from '../platform/queue/queue';
import {
  chargedMappings,
  countResults,
  emptyCounts,
  JOB_DEADLINE_HOURS,
  jobObjects,
  listedAtOf,
  type MappingJob,
  type PinnedReference,
} from './job';
import { toJsonLines } from './results-files';
import { claimsFileOf, runFinishingPart, startFinishing, type FinishingPorts, type FinishingSizes } from './finishing';
import { completionEvent } from './completion';
import { mappingDeadlineQueue, type BookWriteMessage, type ChunkMessage, type DeadlineMessage, type FinishingMessage } from './queues';
import type { MappingJobStore } from './store';
import { answerRows, type RowAnswerPorts } from './unchanged-rows';

/** What the job lifecycle counts and times (the dashboard reads these names: infra/observability.ts). */
export const JOB_METRICS = {
  jobsCreated: 'JobsCreated',
  jobsCompleted: 'JobsCompleted',
  jobsFailed: 'JobsFailed',
  jobsCancelled: 'JobsCancelled',
  jobDuration: 'JobDuration',
  chunkDuration: 'ChunkDuration',
  rowsMapped: 'RowsMapped',
} as const;

export interface SupplierLookup {
  /** The connected, active supplier with this code, or undefined. */
  connectedSupplier(
    organizationId: string,
    code: string,
  ): Promise<{ id: string; code: string; name: string } | 'not_connected' | 'unknown' | 'inactive'>;
}

export interface JobPorts {
  jobs: Pick<MappingJobStore, 'create' | 'fail' | 'get'>;
  metering: Pick<Metering, 'reserve' | 'settle'>;
  chunks: Queue<ChunkMessage>;
  scheduler: Scheduler;
  clock: Clock;
  newId: () => string;
}

export interface CreateJobInput {
  organizationId: string;
  inventory: PartnerInventory | undefined;
  partnerInventoryId: string;
  requestedMode: MappingMode | undefined;
  defaultMode: MappingMode | undefined;
  reference: PinnedReference | undefined;
  suppliers: SupplierLookup;
  /** The inventory holds only some of its sources' hotels: its write into the book ends no entry. */
  partial?: boolean;
  /** The job's name; the inventory's when absent. */
  name?: string;
}

/** The connected, active supplier of `code` that ID_TO_ID and HYBRID map through; 400 saying why when there is none. */
export async function connectedSupplierFor(
  suppliers: SupplierLookup,
  organizationId: string,
  mode: MappingMode,
  code: string | undefined,
): Promise<NonNullable<MappingJob['supplier']>> {
  if (!code)
    throw invalidInput(`${mode} mapping needs a supplierCode: the supplier whose hotel codes the hotels give. Give one, or use STANDARD.`);
  const found = await suppliers.connectedSupplier(organizationId, code);
  if (found === 'unknown') throw invalidInput(`${mode} mapping: the supplier ${code} is not supported.`);
  if (found === 'inactive') throw invalidInput(`${mode} mapping: the supplier ${code} no longer takes connections.`);
  if (found === 'not_connected') throw invalidInput(`${mode} mapping: your organization is not connected to ${code}. Connect it first.`);
  return found;
}

/**
 * Validates everything first, then reserves the mappings (403 when quota and credits do not cover
 * them), then stores the job and queues its chunks. On any error nothing stays reserved: a job
 * stored but not queued (no deadline, or not all its chunks) fails at once, releasing its
 * reservation, and the partner creates it again.
 */
export async function createMappingJob(ports: JobPorts, input: CreateJobInput): Promise<MappingJob> {
  const { inventory, organizationId } = input;
  if (!inventory) throw notFound(`Your organization has no partner inventory ${input.partnerInventoryId}.`);
  if (inventory.status !== 'READY') {
    throw invalidInput(`The partner inventory is ${inventory.status}; only a READY inventory can be mapped.`);
  }
  const mode = input.requestedMode ?? input.defaultMode ?? 'STANDARD';
  let supplier: MappingJob['supplier'];
  if (matchesBySupplierCode(mode)) {
    if (!inventory.supplierCode) {
      throw invalidInput(
        `${mode} mapping needs an inventory with a supplierCode; this one has none. Upload it with supplierCode, or use STANDARD.`,
      );
    }
    supplier = await connectedSupplierFor(input.suppliers, organizationId, mode, inventory.supplierCode);
  }
  if (!input.reference) throw invalidInput('No reference inventory is published yet: there is nothing to map against.');

  const now = ports.clock.now();
  const job: MappingJob = {
    id: ports.newId(),
    organizationId,
    partnerInventoryId: inventory.id,
    name: input.name ?? inventory.name,
    mode,
    status: 'PENDING',
    supplier,
    reference: input.reference,
    chunkCount: inventory.chunkCount,
    counts: emptyCounts(inventory.hotelCount),
    ...(input.partial && { partial: true }),
    inventoryUploadedAt: inventory.createdAt,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ports.metering.reserve({ organizationId, jobId: job.id, mappings: inventory.hotelCount, supplier });
  try {
    await ports.jobs.create(job);
  } catch (error) {
    await ports.metering.settle({ organizationId, jobId: job.id, processed: 0 });
    throw error;
  }
  try {
    await ports.scheduler.schedule<DeadlineMessage>({
      name: `mapping-deadline-${job.id}`,
      at: new Date(now.getTime() + JOB_DEADLINE_HOURS * 3_600_000),
      queue: mappingDeadlineQueue,
      message: { organizationId, mappingJobId: job.id },
    });
    await ports.chunks.sendAll(Array.from({ length: job.chunkCount }, (_, chunk) => ({ organizationId, mappingJobId: job.id, chunk })));
  } catch (error) {
    await failJob(ports, job, 'The job could not be queued; nothing was charged. Create it again.');
    throw error;
  }
  recordCount(JOB_METRICS.jobsCreated, 1, { mode });
  return job;
}

export interface ChunkPorts extends FinishingPorts, RowAnswerPorts {
  jobs: FinishingPorts['jobs'] & Pick<MappingJobStore, 'markRunning' | 'recordChunk' | 'complete' | 'fail' | 'cancel'>;
  /** How the finishing stage is cut. */
  finishingSizes: FinishingSizes;
  /** Where a completed job's write into the mapping book starts. */
  bookWrites: Pick<Queue<BookWriteMessage>, 'send'>;
  /** Whether the organization is told of completions (an active delivery destination, or a webhook taking MAPPING_COMPLETED). */
  completionListened(organizationId: string): Promise<boolean>;
  metering: Pick<Metering, 'settle'>;
  clock: Clock;
}

/** A message of the chunk queue: a chunk to map, or a part of a job's finishing stage. */
export function runChunkMessage(ports: ChunkPorts, message: ChunkMessage): Promise<void> {
  return 'chunk' in message ? mapChunk(ports, message) : finishPart(ports, message);
}

/**
 * Maps one chunk (its rows unchanged since the mapping book's entry answered from the book:
 * unchanged-rows.ts) and counts it once. Its results and claims files are written before the chunk
 * is counted, so a delivery that dies halfway is simply repeated. Once its last chunk is counted,
 * the job's finishing stage starts (finishing.ts), and its last part completes the job.
 */
export async function mapChunk(ports: ChunkPorts, message: Extract<ChunkMessage, { chunk: number }>): Promise<void> {
  const job = await ports.jobs.get(message.organizationId, message.mappingJobId);
  if (!job || job.status === 'FAILED' || job.status === 'CANCELLED') return;
  if (job.status === 'COMPLETED') {
    // Completed before: settle again and start the book's write, in case the delivery that completed it died before that.
    await afterCompletion(ports, job);
    return;
  }
  if (job.doneChunks?.has(message.chunk)) {
    // Counted before: only start the finishing stage, in case the delivery that counted it died before that.
    if ((job.doneChunks?.size ?? 0) === job.chunkCount) await finishAll(ports, job);
    return;
  }
  const now = () => ports.clock.now().toISOString();
  if (job.status === 'PENDING') await ports.jobs.markRunning(job, now());
  const rows = await ports.rows(job, message.chunk);
  if (!rows) {
    await failJob(ports, job, 'The partner inventory was deleted while the job ran.');
    return;
  }
  const started = performance.now();
  const { results, mapped, bookReadMs, indexLoadMs, matchMs } = await answerRows(ports, job, rows);
  const answered = performance.now();
  await Promise.all([
    ports.putResultsFile(jobObjects.results(job, message.chunk), toJsonLines(results)),
    ports.putResultsFile(jobObjects.claims(job, message.chunk), claimsFileOf(results)),
  ]);
  const counted = await ports.jobs.recordChunk(job, message.chunk, countResults(results), now());
  if (counted) recordChunkMetrics(results, performance.now() - started);
  // One line per chunk: where a job's time goes (the book's answers, index load, matching, writes), for operators and bench:jobs.
  log('info', 'chunk mapped', {
    mappingJobId: job.id,
    chunk: message.chunk,
    rows: results.length,
    mapped,
    bookReadMs: Math.round(bookReadMs),
    indexLoadMs: Math.round(indexLoadMs),
    matchMs: Math.round(matchMs),
    writeMs: Math.round(performance.now() - answered),
  });
  if (counted && (counted.doneChunks?.size ?? 0) === counted.chunkCount) await finishAll(ports, counted);
}

/** Starts the finishing stage of a job whose chunks are all counted (or resumes it, delivered again), completing the job if it is done. */
async function finishAll(ports: ChunkPorts, job: MappingJob): Promise<void> {
  if ((await startFinishing(ports, job, ports.finishingSizes)) === 'complete')
    await completeJob(ports, (await ports.jobs.get(job.organizationId, job.id))!);
}

/** A part of the finishing stage; the last one completes the job. */
async function finishPart(ports: ChunkPorts, message: FinishingMessage): Promise<void> {
  const outcome = await runFinishingPart(ports, message, ports.finishingSizes);
  if (outcome === 'running') return;
  const job = (await ports.jobs.get(message.organizationId, message.mappingJobId))!;
  if (outcome === 'inventory_gone') await failJob(ports, job, 'The partner inventory was deleted while the job ran.');
  else await completeJob(ports, job);
}

/** Completes a job whose views are written and counts set, recording MAPPING_COMPLETED in one transaction; then settles and starts the book's write. */
async function completeJob(ports: ChunkPorts, job: MappingJob): Promise<void> {
  if (job.status === 'RUNNING') {
    const completedAt = ports.clock.now().toISOString();
    // Someone listens: the export is written first, so that the event carries its link and where it is delivered.
    const told = (await ports.completionListened(job.organizationId))
      ? { exportFirst: { organizationId: job.organizationId, mappingJobId: job.id, completion: true as const } }
      : { event: completionEvent(job, completedAt, null, []) };
    if (await ports.jobs.complete(job, completedAt, told)) {
      recordCount(JOB_METRICS.jobsCompleted, 1, { mode: job.mode });
      recordMilliseconds(JOB_METRICS.jobDuration, Date.parse(completedAt) - Date.parse(job.startedAt ?? job.createdAt), { mode: job.mode });
    }
  }
  const completed = (await ports.jobs.get(job.organizationId, job.id))!;
  if (completed.status === 'COMPLETED') await afterCompletion(ports, completed);
}

/** What follows a completion, repeated with it on a redelivery: the charge settled, the job's write into the book started (a write made is left as it is). */
async function afterCompletion(ports: ChunkPorts, completed: MappingJob): Promise<void> {
  await ports.metering.settle({
    organizationId: completed.organizationId,
    jobId: completed.id,
    processed: chargedMappings(completed.counts),
  });
  await ports.bookWrites.send({
    organizationId: completed.organizationId,
    mappingJobId: completed.id,
    partial: completed.partial === true,
    listedAt: listedAtOf(completed),
    changedRows: completed.counts.processed - completed.counts.unchanged,
    ...(completed.reference.number !== undefined && {
      mappedAgainst: { referenceVersionId: completed.reference.artifactsId, number: completed.reference.number },
    }),
  });
}

/** A chunk's time and its rows by status and method (the first time it is counted only). */
function recordChunkMetrics(results: readonly MappingResult[], durationMs: number): void {
  recordMilliseconds(JOB_METRICS.chunkDuration, durationMs);
  const rows = new Map<string, { status: string; method: string; count: number }>();
  for (const result of results) {
    const method = result.method ?? 'NONE';
    const key = `${result.status} ${method}`;
    const entry = rows.get(key) ?? rows.set(key, { status: result.status, method, count: 0 }).get(key)!;
    entry.count++;
  }
  for (const { status, method, count } of rows.values()) recordCount(JOB_METRICS.rowsMapped, count, { status, method });
}

/**
 * Cancels a job that has not ended: its remaining chunks do nothing when they arrive, and it settles
 * what it processed (the rows of its counted chunks, the only ones readable), releasing the rest.
 * Cancelling it again answers it as it is; a job that completed or failed first cannot be cancelled.
 */
export async function cancelJob(ports: Pick<ChunkPorts, 'jobs' | 'metering' | 'clock'>, job: MappingJob): Promise<MappingJob> {
  if ((job.status === 'PENDING' || job.status === 'RUNNING') && (await ports.jobs.cancel(job, ports.clock.now().toISOString()))) {
    recordCount(JOB_METRICS.jobsCancelled);
  }
  const current = (await ports.jobs.get(job.organizationId, job.id))!;
  if (current.status !== 'CANCELLED') {
    throw conflict(`The job is ${current.status}; only a PENDING or RUNNING job can be cancelled.`);
  }
  // Repeated on every cancel: a cancel that died between the two steps is finished by the next one.
  // An ended job counts no more chunks, so the processed count is final.
  await ports.metering.settle({ organizationId: job.organizationId, jobId: job.id, processed: chargedMappings(current.counts) });
  return current;
}

/**
 * Fails a job that has not ended with a readable reason, and settles what it processed (the rows of
 * its counted chunks, the only ones readable), releasing the rest; safe to repeat.
 */
export async function failJob(
  ports: { jobs: Pick<MappingJobStore, 'fail' | 'get'>; metering: Pick<Metering, 'settle'>; clock: Clock },
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  reason: string,
): Promise<void> {
  if (await ports.jobs.fail(job, reason, ports.clock.now().toISOString())) recordCount(JOB_METRICS.jobsFailed);
  const current = await ports.jobs.get(job.organizationId, job.id);
  if (current?.status === 'FAILED')
    await ports.metering.settle({ organizationId: job.organizationId, jobId: job.id, processed: chargedMappings(current.counts) });
}
