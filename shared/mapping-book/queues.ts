/** The queues on which the book follows the reference: one message per publication, then one per book. */
import * as v from 'valibot';
import { defineQueue } from '../platform/queue/queue';
import { MATCHING_INDEX_PREFIX, REFERENCE_CHANGES_PREFIX, referenceChangeMessages } from '../reference';
import { BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX, BOOK_EXPORTS_PREFIX, BOOK_FILES_PREFIX } from './files';

export const referenceChangeQueue = defineQueue({
  ...referenceChangeMessages,
  handler: 'mapping-book/reference-changes',
  description: "Tells every organization's mapping book of a reference publication: one follow message per book",
  maxReceiveCount: 5,
  batchSize: 1,
  // Lists the books; sends their follows.
  access: { table: 'read', sendsTo: ['mapping-book-follows'] },
  lambda: { memoryMb: 256, timeoutSeconds: 120 },
  concurrency: { max: 2 },
});

export const mappingBookFollowQueue = defineQueue({
  name: 'mapping-book-follows',
  handler: 'mapping-book/follow',
  description: "Takes a reference publication's changes into one organization's mapping book, a thousand entries per message",
  schema: v.object({
    organizationId: v.string(),
    referenceVersionId: v.string(),
    since: v.optional(v.string()),
    after: v.optional(v.string()),
    from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    counts: v.optional(v.object({ new: v.number(), updated: v.number(), deleted: v.number() })),
  }),
  maxReceiveCount: 5,
  batchSize: 1,
  access: {
    table: 'readwrite',
    // The generation's reference index and entries, the publications' changes, and the matching index entries are mapped again against.
    objects: { read: [BOOK_FILES_PREFIX, REFERENCE_CHANGES_PREFIX, MATCHING_INDEX_PREFIX] },
    // A commit of more than a few changes names a file of them; the generation's index is in its derived files.
    resultObjects: { read: [BOOK_DERIVED_PREFIX], write: [BOOK_CHANGES_PREFIX] },
    sendsTo: ['mapping-book-follows'],
  },
  // Loading the matching index of a million hotels peaks at about 0.75 GB (as a mapping chunk's);
  // a thousand entries mapped again take a second or two.
  lambda: { memoryMb: 3008, timeoutSeconds: 300 },
  concurrency: { max: 10 },
});

export const mappingBookExportQueue = defineQueue({
  name: 'mapping-book-exports',
  handler: 'mapping-book/export-preparation',
  description: "Writes the file of a book's export: one source's entries in the organization's export format",
  schema: v.object({ organizationId: v.string(), exportId: v.string(), source: v.string() }),
  // A failed export is asked for again by the partner's next request once it is overdue.
  maxReceiveCount: 2,
  batchSize: 1,
  access: {
    table: 'readwrite',
    objects: { read: [BOOK_FILES_PREFIX] },
    resultObjects: { read: [BOOK_DERIVED_PREFIX], write: [BOOK_EXPORTS_PREFIX] },
  },
  // Lambda's longest run: a million entries are read in about a minute; the file is held twice.
  lambda: { memoryMb: 4096, timeoutSeconds: 900 },
  concurrency: { max: 5 },
});

export type ReferenceChangeMessage = v.InferOutput<typeof referenceChangeQueue.schema>;
export type FollowQueueMessage = v.InferOutput<typeof mappingBookFollowQueue.schema>;
export type ExportMessage = v.InferOutput<typeof mappingBookExportQueue.schema>;

export const mappingBookRecordQueue = defineQueue({
  name: 'mapping-book-records',
  handler: 'mapping-book/record',
  description: "Records find-match answers into the organization's mapping book, one request's answers per message",
  schema: v.object({
    organizationId: v.string(),
    /** The request that answered them: its id keeps a relayed message from being recorded twice. */
    requestId: v.string(),
    requestedBy: v.string(),
    /** The rows, JSON gzipped, base64: a hundred rows with their candidates in about 20 KB. */
    rows: v.string(),
  }),
  // One group per book: SQS hands out its messages one at a time, so requests that recorded at once
  // are written one after another instead of racing for the feed's head; books run side by side.
  fifo: { groupOf: ({ organizationId }) => organizationId, deduplicationIdOf: ({ requestId }) => requestId },
  maxReceiveCount: 5,
  batchSize: 1,
  // The generation's entries; a commit of more than a few changes names a file of them.
  access: {
    table: 'readwrite',
    objects: { read: [BOOK_FILES_PREFIX] },
    resultObjects: { read: [BOOK_DERIVED_PREFIX], write: [BOOK_CHANGES_PREFIX] },
  },
  // A hundred entries read and laid over in two commits: well under a second.
  lambda: { memoryMb: 512, timeoutSeconds: 60 },
  concurrency: { max: 10 },
});

export type RecordMessage = v.InferOutput<typeof mappingBookRecordQueue.schema>;
