/** The queues mapping jobs run on: one message per chunk of rows, one deadline per job, and one message per large export. */
import * as v from 'valibot';
import { INVENTORY_FILES_PREFIX } from '../partner-inventories';
import { defineQueue } from '../platform/queue/queue';
import { MATCHING_INDEX_PREFIX } from '../reference';
import { BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX, BOOK_FILES_PREFIX } from '../mapping-book';
import { EXPORTS_PREFIX } from '../export-format';
import { JOB_RESULTS_PREFIX } from './job';

const part = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A part of a job's finishing stage (finishing.ts): a claims or views part by number, a partition's merge by name. */
const finishingMessage = v.object({
  organizationId: v.string(),
  mappingJobId: v.string(),
  finishing: v.picklist(['claims', 'views', 'scores']),
  part: v.optional(part),
  partition: v.optional(v.string()),
});

export const mappingChunkQueue = defineQueue({
  name: 'mapping-chunks',
  handler: 'mapping-jobs/chunk',
  deadLetterHandler: 'mapping-jobs/chunk-dead-letters',
  description: "Maps one chunk (2,000 rows) of a job against the pinned reference index, or runs a part of a job's finishing stage",
  schema: v.union([v.object({ organizationId: v.string(), mappingJobId: v.string(), chunk: part }), finishingMessage]),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  maxReceiveCount: 3,
  batchSize: 1,
  // Reads the inventory's rows and the pinned matching index; writes its results and claims, and the finishing stage's files.
  access: {
    table: 'readwrite',
    objects: { read: [INVENTORY_FILES_PREFIX, MATCHING_INDEX_PREFIX] },
    resultObjects: { read: [JOB_RESULTS_PREFIX], write: [JOB_RESULTS_PREFIX] },
    // The finishing stage's parts go to this queue; a completed job's write into the mapping book starts there.
    sendsTo: ['mapping-chunks', 'mapping-book-writes'],
  },
  // It only fails the job and releases its reservation.
  deadLetterAccess: { table: 'readwrite' },
  // Loading the matching index of a million hotels peaks at about 0.75 GB; a chunk of 2,000 to
  // 10,000 rows maps in a few seconds and writes its results in a few more. The timeout leaves room for a cold
  // index load. A finishing part holds at most a views part's 100,000 rows (about 100 MB) or a
  // claims part's 500,000 claims beside the index, whatever the job's size. More memory buys
  // nothing: matching is single-threaded, and 1,769 MB already buys a whole vCPU.
  lambda: { memoryMb: 2048, timeoutSeconds: 180 },
  // Each container loads the matching index once (1.7 s at a million hotels: bench:cost) and
  // then maps chunk after chunk: ten at once load it ten times a job, where fifty loaded it fifty
  // times for a 100,000-row job (0.055 USD a million rows at a million hotels, half the budget).
  // A 100,000-row job (ten chunks) so maps in one round; jobs beside it wait their turn.
  concurrency: { max: 10 },
});

export const mappingDeadlineQueue = defineQueue({
  name: 'mapping-deadlines',
  handler: 'mapping-jobs/deadline',
  // A deadline the worker or the scheduler could not deliver still fails its job: no reservation is held forever.
  deadLetterHandler: 'mapping-jobs/deadline-dead-letters',
  description: 'Fails a job still unfinished at its deadline and releases its reserved mappings',
  schema: v.object({ organizationId: v.string(), mappingJobId: v.string() }),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  maxReceiveCount: 5,
  batchSize: 10,
  access: { table: 'readwrite' },
  // It fails the job as the worker would.
  deadLetterAccess: { table: 'readwrite' },
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
  concurrency: { max: 2 },
});

/** A completed job whose export is written before its completion is told (completion.ts). */
const completionMessage = v.object({ organizationId: v.string(), mappingJobId: v.string(), completion: v.literal(true) });

export const mappingExportQueue = defineQueue({
  name: 'mapping-exports',
  handler: 'mapping-jobs/export-preparation',
  // A completion whose file could not be written is told without it.
  deadLetterHandler: 'mapping-jobs/export-dead-letters',
  description:
    'Writes the export file of a job too large to export within a request, or of a completed job before its completion is told and delivered',
  schema: v.union([v.object({ organizationId: v.string(), mappingJobId: v.string(), exportId: v.string() }), completionMessage]),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  // A failed export is asked for again by the partner's next request once it is overdue; SQS's
  // redelivery is only the first retry.
  maxReceiveCount: 2,
  batchSize: 1,
  access: {
    table: 'readwrite',
    // A completion's file is handed out by a link in its event and to the destinations' deliveries.
    resultObjects: { read: [JOB_RESULTS_PREFIX, EXPORTS_PREFIX], write: [EXPORTS_PREFIX] },
    sendsTo: ['file-deliveries'],
  },
  deadLetterAccess: { table: 'readwrite' },
  // Lambda's longest run. At the slowest export rate measured (9,000 rows/s) it writes 8 million
  // rows, twice EXPORT_MAX_ROWS; a JSON file of those rows is about 1.3 GB, held twice.
  lambda: { memoryMb: 4096, timeoutSeconds: 900 },
  concurrency: { max: 5 },
});

export const mappingBookWriteQueue = defineQueue({
  name: 'mapping-book-writes',
  handler: 'mapping-jobs/book-write',
  // A write that cannot finish gives the book back, so later jobs are written.
  deadLetterHandler: 'mapping-jobs/book-write-dead-letters',
  description: "Writes a completed job's rows into the organization's mapping book: a start, then one message per range of partner ids",
  schema: v.object({
    organizationId: v.string(),
    mappingJobId: v.string(),
    /** Absent for the start, which sends the ranges. */
    range: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    /** The job's inventory is partial: its write ends no entry (the start's). */
    partial: v.optional(v.boolean()),
    /** When the job's inventory was uploaded: the book takes jobs in this order (the start's). */
    listedAt: v.optional(v.string()),
    /** The job's rows the engine mapped, new or changed since the book's entry (the start's). */
    changedRows: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    /** The reference publication the job mapped against (the start's). */
    mappedAgainst: v.optional(v.object({ referenceVersionId: v.string(), number: v.number() })),
  }),
  traceAnnotations: (message) => ({ jobId: message.mappingJobId }),
  maxReceiveCount: 5,
  batchSize: 1,
  access: {
    table: 'readwrite',
    // Writes the book's next generation; its changes go to the feed's files, read again at the commit.
    // The generation it replaces and the segments it merged expire a day later; its own segment, when empty, goes at once.
    objects: { read: [BOOK_FILES_PREFIX], write: [BOOK_FILES_PREFIX], delete: [BOOK_FILES_PREFIX], expire: [BOOK_FILES_PREFIX] },
    // The parts' derived files likewise, in the results bucket.
    resultObjects: {
      read: [JOB_RESULTS_PREFIX, BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX],
      write: [BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX],
      delete: [BOOK_DERIVED_PREFIX],
      expire: [BOOK_DERIVED_PREFIX],
    },
    // A job mapped against a publication older than the one the book follows is brought up to it.
    sendsTo: ['mapping-book-writes', 'mapping-book-follows'],
  },
  // It gives the book back; the files the write had written expire a day later.
  deadLetterAccess: {
    table: 'readwrite',
    objects: { read: [BOOK_FILES_PREFIX], expire: [BOOK_FILES_PREFIX] },
    resultObjects: { expire: [BOOK_DERIVED_PREFIX] },
  },
  // A range is about 20 blocks of work (10,000 rows or merged entries, or 200 blocks of the book
  // that a partial job's rows read): a few seconds. The last range also writes the segment's
  // manifest and the generation's, and commits.
  lambda: { memoryMb: 1024, timeoutSeconds: 120 },
  concurrency: { max: 20 },
});

export type ChunkMessage = v.InferOutput<typeof mappingChunkQueue.schema>;
export type FinishingMessage = v.InferOutput<typeof finishingMessage>;
export type ExportMessage = Exclude<v.InferOutput<typeof mappingExportQueue.schema>, CompletionMessage>;
export type CompletionMessage = v.InferOutput<typeof completionMessage>;
export type ExportQueueMessage = v.InferOutput<typeof mappingExportQueue.schema>;
export type DeadlineMessage = v.InferOutput<typeof mappingDeadlineQueue.schema>;
export type BookWriteMessage = v.InferOutput<typeof mappingBookWriteQueue.schema>;
