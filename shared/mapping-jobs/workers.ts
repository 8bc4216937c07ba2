/** The workers of the mapping queues. */
import { chunkRowRange } from '../partner-inventories';
import type { Runtime } from '../platform/runtime';
import { JOB_DEADLINE_HOURS, type MappingJob } from './job';
import { failJob, runChunkMessage } from './lifecycle';
import { prepareExport } from './export-preparation';
import type { BookWriteMessage, ChunkMessage, DeadlineMessage, ExportQueueMessage } from './queues';
import { tellCompletion, tellCompletionWithoutFile } from './completion';
import { bookWritePorts, chunkPorts, completionPorts, endingPorts, exportPorts } from './services';
import { writeIntoBook } from './book-writes';
import { abandonJobWrite, bookPorts } from '../mapping-book';

export function mapJobChunk(message: ChunkMessage, runtime: Runtime): Promise<void> {
  return runChunkMessage(chunkPorts(runtime), message);
}

/** A chunk or finishing part that failed every delivery fails its job, which settles the rows it processed and releases the rest. */
export async function failJobOfDeadChunk(message: ChunkMessage, runtime: Runtime): Promise<void> {
  const ports = endingPorts(runtime);
  const job = await ports.jobs.get(message.organizationId, message.mappingJobId);
  if (job) await failJob(ports, job, deadChunkReason(job, message));
}

function deadChunkReason(job: MappingJob, message: ChunkMessage): string {
  if ('chunk' in message) {
    const { first, last } = chunkRowRange(job.counts.total, message.chunk);
    return `Rows ${first} to ${last} could not be mapped after several attempts. Create the job again; if it fails again, contact support.`;
  }
  return `The job's results could not be put together (its ${message.finishing} stage failed several attempts). Create the job again; if it fails again, contact support.`;
}

/** A job still unfinished at its deadline fails, settling the rows it processed and releasing the rest. */
export function failOverdueJob(message: DeadlineMessage, runtime: Runtime): Promise<void> {
  return failJob(
    endingPorts(runtime),
    { organizationId: message.organizationId, id: message.mappingJobId },
    `The job did not finish within ${JOB_DEADLINE_HOURS} hours. Create it again; if it fails again, contact support.`,
  );
}

/** Writes the file of a large job's export, which the partner's next request hands out, or a completed job's, before its completion is told. */
export function prepareMappingExport(message: ExportQueueMessage, runtime: Runtime): Promise<void> {
  return 'completion' in message ? tellCompletion(completionPorts(runtime), message) : prepareExport(exportPorts(runtime), message);
}

/** An export that failed every attempt: a completion is told without its file; a partner's request prepares its export again. */
export async function abandonMappingExport(message: ExportQueueMessage, runtime: Runtime): Promise<void> {
  if ('completion' in message) await tellCompletionWithoutFile(completionPorts(runtime), message);
}

/** Writes a completed job's rows into the organization's mapping book: the start, or one range. */
export function writeJobIntoBook(message: BookWriteMessage, runtime: Runtime): Promise<void> {
  return writeIntoBook(bookWritePorts(runtime), message);
}

/** A job's write into the book that failed every delivery gives the book back (its rows come with the next job). */
export function abandonJobBookWrite(message: BookWriteMessage, runtime: Runtime): Promise<void> {
  return abandonJobWrite(bookPorts(runtime), message.organizationId, message.mappingJobId);
}
