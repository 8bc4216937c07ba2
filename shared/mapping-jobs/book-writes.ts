/**
 * Jobs write into the mapping book: a completed job's rows, on the book-writes queue (a start, then
 * its ranges), and each decision on a job's row, in the transaction that records it on the job.
 */
import { referenceFactsIn } from '../mapping';
import { decideEntry, OWN_SOURCE, SNAPSHOT_BLOCK_ENTRIES, startJobWrite, writeJobRange, type BookEntry, type BookPorts, type JobRow, type JobRowsSource } from '../mapping-book';
import type { DomainEvent } from '../platform/events/events';
import type { ObjectStore } from '../platform/objects/object-store';
import type { Queue } from '../platform/queue/queue';
import { listedAtOf, type MappingJob, type StoredResult } from './job';
import type { BookWriteMessage } from './queues';
import type { ResolvedEvent } from './review';
import { EngineRowsInOrder } from './result-views';
import type { MappingJobStore } from './store';

/** While another job's write holds the book, a start waits this long and tries again. */
export const BOOK_BUSY_RETRY_SECONDS = 30;

/** A job's row, or a find-match answer, as the book takes it. */
export function jobRow(result: Omit<StoredResult, 'chunk'>): JobRow {
  return {
    partnerHotelId: result.partnerHotelId,
    source: result.source ?? OWN_SOURCE,
    partner: result.partner ?? { name: result.partnerHotelName },
    status: result.status,
    // The views hold the engine's rows: a person's decisions are items of their own.
    method: result.method === 'MANUAL' ? null : result.method,
    referenceHotelId: result.referenceHotelId,
    referenceHotelName: result.referenceHotelName,
    ...referenceFactsIn(result),
    score: result.score,
    evidence: result.evidence,
    candidates: result.candidates,
    ...(result.reason !== undefined && { reason: result.reason }),
    ...(result.basis !== undefined && { basis: result.basis }),
    ...(result.unclaimed !== undefined && { unclaimed: result.unclaimed }),
  };
}

/** A completed job's rows in partner id order, from its results views. */
export function jobRowsSource(objects: Pick<ObjectStore, 'get'>, job: Pick<MappingJob, 'organizationId' | 'id'>): JobRowsSource {
  const rows = new EngineRowsInOrder(objects, job, SNAPSHOT_BLOCK_ENTRIES);
  return { outline: () => rows.outline(), rows: async (from, to) => (await rows.rows(from, to)).map(jobRow) };
}

export interface BookWritePorts {
  book: BookPorts;
  queue: Pick<Queue<BookWriteMessage>, 'send' | 'sendAll'>;
  rowsOf(job: Pick<MappingJob, 'organizationId' | 'id'>): JobRowsSource;
}

export async function writeIntoBook(ports: BookWritePorts, message: BookWriteMessage): Promise<void> {
  const job = { organizationId: message.organizationId, id: message.mappingJobId };
  const request = { organizationId: message.organizationId, mappingJobId: message.mappingJobId };
  if (message.range !== undefined) {
    await writeJobRange(ports.book, { ...request, range: message.range }, ports.rowsOf(job));
    return;
  }
  const start = {
    ...request,
    partial: message.partial === true,
    // A start sent before starts carried it: its rows are as new as any.
    listedAt: message.listedAt ?? ports.book.clock.now().toISOString(),
    ...(message.changedRows !== undefined && { changedRows: message.changedRows }),
    ...(message.mappedAgainst && { mappedAgainst: message.mappedAgainst }),
  };
  const ranges = await startJobWrite(ports.book, start, ports.rowsOf(job));
  if (ranges === 'busy') await ports.queue.send(message, { delaySeconds: BOOK_BUSY_RETRY_SECONDS });
  else await ports.queue.sendAll(Array.from({ length: ranges }, (_, range) => ({ ...request, range })));
}

/**
 * A decision on a job's row, recorded on the job and in the book in one transaction; false when
 * another decision changed the row meanwhile (nothing written).
 */
export async function decideInBook(
  ports: { book: BookPorts; jobs: Pick<MappingJobStore, 'decisionWrites'> },
  job: Pick<MappingJob, 'organizationId' | 'id' | 'createdAt' | 'inventoryUploadedAt'>,
  read: StoredResult,
  updated: StoredResult,
  event: DomainEvent,
): Promise<boolean> {
  const review = updated.review!;
  const entry: BookEntry | undefined = await decideEntry(
    ports.book,
    job.organizationId,
    { source: read.source ?? OWN_SOURCE, partnerHotelId: read.partnerHotelId },
    {
      decision: review.decision,
      referenceHotelId: updated.referenceHotelId,
      referenceHotelName: updated.referenceHotelName,
      ...referenceFactsIn(updated),
      ...(review.note !== undefined && { note: review.note }),
      decidedBy: review.decidedBy,
      decidedAt: review.decidedAt,
      partner: read.partner ?? { name: read.partnerHotelName },
    },
    { kind: 'REVIEW', decidedBy: review.decidedBy, mappingJobId: job.id },
    { row: { mappingJobId: job.id, row: jobRow(read), listedAt: listedAtOf(job) }, writes: ports.jobs.decisionWrites(job, read, updated, event) },
  );
  return entry !== undefined;
}

/**
 * A decision on a job's row taken back, on the job and in the book in one transaction (the book's
 * entry only while it still stands by that decision); false when another decision changed the row
 * meanwhile (nothing written).
 */
export async function withdrawInBook(
  ports: { book: BookPorts; jobs: Pick<MappingJobStore, 'withdrawalWrites'> },
  job: Pick<MappingJob, 'organizationId' | 'id' | 'createdAt' | 'inventoryUploadedAt'>,
  read: StoredResult,
  engine: StoredResult,
  event: ResolvedEvent,
): Promise<boolean> {
  const entry: BookEntry | undefined = await decideEntry(
    ports.book,
    job.organizationId,
    { source: read.source ?? OWN_SOURCE, partnerHotelId: read.partnerHotelId },
    { withdrawnDecidedAt: read.review!.decidedAt, decidedBy: event.data.decidedBy, decidedAt: event.occurredAt },
    { kind: 'REVIEW', decidedBy: event.data.decidedBy, mappingJobId: job.id },
    { row: { mappingJobId: job.id, row: jobRow(engine), listedAt: listedAtOf(job) }, writes: ports.jobs.withdrawalWrites(job, read, engine, event) },
  );
  return entry !== undefined;
}
