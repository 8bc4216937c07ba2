/**
 * Jobs write into the mapping book: a completed job's rows, on the book-writes queue (a start, then
 * its ranges), and each decision on a job's row, in the transaction that records it on the job.
 */
import { referenceFactsIn } from '../mapping';
import {
  decideEntries,
  engineAnswer,
  OWN_SOURCE,
  SNAPSHOT_BLOCK_ENTRIES,
  startJobWrite,
  writeJobRange,
  type BookPorts,
  type EntryDecision,
  type JobRow,
  type JobRowsSource,
} from '../mapping-book';
import type { Queue } from '../platform/queue/queue';
import { listedAtOf, type MappingJob, type StoredResult } from './job';
import type { BookWriteMessage } from './queues';
import type { CommitOutcome, PreparedDecision } from './review';
import type { RowLeaseStore } from './lease-store';
import { conflict } from '../platform/errors';
import { EngineRowsInOrder, type ViewReads } from './result-views';
import type { MappingJobStore } from './store';

/** While another job's write holds the book, a start waits this long and tries again. */
export const BOOK_BUSY_RETRY_SECONDS = 30;

/** A job's row, or a find-match answer, as the book takes it. */
export function jobRow(result: Omit<StoredResult, 'chunk'>): JobRow {
  return {
    partnerHotelId: result.partnerHotelId,
    source: result.source ?? OWN_SOURCE,
    partner: result.partner ?? { name: result.partnerHotelName },
    // The views hold the engine's rows: a person's decisions are items of their own.
    ...engineAnswer({ ...result, method: result.method === 'MANUAL' ? null : result.method }),
  };
}

/** A completed job's rows in partner id order, from its results views. */
export function jobRowsSource(views: Pick<ViewReads, 'objects' | 'files'>, job: Pick<MappingJob, 'organizationId' | 'id'>): JobRowsSource {
  const rows = new EngineRowsInOrder(views, job, SNAPSHOT_BLOCK_ENTRIES);
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
 * Decisions on a job's rows (at most DECISIONS_PER_COMMIT), recorded on the job and in the book in
 * one transaction: a withdrawal changes the book's entry only while it still stands by that
 * decision. A decision the book refuses, or whose row another decision changed meanwhile, is left out.
 */
export async function commitDecisions(
  ports: {
    book: BookPorts;
    jobs: Pick<MappingJobStore, 'decisionWrites' | 'withdrawalWrites' | 'decisionsCounted'>;
    leases: Pick<RowLeaseStore, 'freeFor'>;
  },
  job: Pick<MappingJob, 'organizationId' | 'id' | 'createdAt' | 'inventoryUploadedAt' | 'scores'>,
  decisions: readonly PreparedDecision[],
  leaseHolder: string | undefined,
): Promise<CommitOutcome[]> {
  const listedAt = listedAtOf(job);
  // The lease check comes last among a row's own writes: a failure there means another reviewer holds the row.
  const leaseFree = (read: StoredResult, at: string) => ports.leases.freeFor(job.id, read.partnerHotelId, leaseHolder, at);
  const entries: EntryDecision[] = decisions.map(({ kind, read, updated, event }) => {
    const id = { source: read.source ?? OWN_SOURCE, partnerHotelId: read.partnerHotelId };
    if (kind === 'WITHDRAWAL') {
      return {
        id,
        act: {
          kind: 'WITHDRAWAL',
          withdrawal: { withdrawnDecidedAt: read.review!.decidedAt, decidedBy: event.data.decidedBy, decidedAt: event.occurredAt },
        },
        row: { mappingJobId: job.id, row: jobRow(updated), listedAt },
        writes: [...ports.jobs.withdrawalWrites(job, read, updated, event), leaseFree(read, event.occurredAt)],
      };
    }
    const review = updated.review!;
    return {
      id,
      act: {
        kind: 'DECISION',
        decision: {
          decision: review.decision,
          referenceHotelId: updated.referenceHotelId,
          referenceHotelName: updated.referenceHotelName,
          ...referenceFactsIn(updated),
          ...(review.note !== undefined && { note: review.note }),
          decidedBy: review.decidedBy,
          decidedAt: review.decidedAt,
          partner: read.partner ?? { name: read.partnerHotelName },
        },
      },
      row: { mappingJobId: job.id, row: jobRow(read), listedAt },
      writes: [...ports.jobs.decisionWrites(job, read, updated, event), leaseFree(read, event.occurredAt)],
    };
  });
  const decidedBy = decisions[0]?.event.data.decidedBy ?? '';
  const outcomes = await decideEntries(
    ports.book,
    job.organizationId,
    entries,
    { kind: 'REVIEW', decidedBy, mappingJobId: job.id },
    (going) =>
      ports.jobs.decisionsCounted(
        job,
        going.map((i) => {
          const { kind, read, updated } = decisions[i]!;
          const engineRow =
            kind === 'WITHDRAWAL' ? { row: updated, decided: false } : read.review === undefined ? { row: read, decided: true } : undefined;
          return { from: read.status, to: updated.status, ...(engineRow && { engineRow }) };
        }),
      ),
  );
  return outcomes.map((outcome, i): CommitOutcome => {
    if (outcome.kind === 'DECIDED') return { outcome: 'COMMITTED' };
    if (outcome.kind === 'REFUSED') return { outcome: 'REFUSED', error: outcome.error };
    const leaseCheck = entries[i]!.writes!.length - 1;
    if (outcome.writes.includes(leaseCheck)) return { outcome: 'REFUSED', error: leasedToAnother(decisions[i]!.read.partnerHotelId) };
    return { outcome: 'LOST' };
  });
}

/** The answer to a decision on a row another reviewer holds. */
function leasedToAnother(partnerHotelId: string) {
  return conflict(
    `The row ${partnerHotelId} is being reviewed by someone else (leased to another reviewer for a short while); decide it once they leave it.`,
  );
}
