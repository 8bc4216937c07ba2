import { errors } from '../platform/http/responses';
import { defineRoute } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import { XLSX_MAX_ROWS } from '../export-format';
import { RECORD_PAGES_PREFIX } from '../reference';
import {
  BOOK_CHANGES_PREFIX,
  BOOK_DERIVED_PREFIX,
  BOOK_EXPORTS_PREFIX,
  BOOK_FILES_PREFIX,
  CHANGES_RETENTION_DAYS,
  EXPORT_KEPT_DAYS,
} from './files';
import { OWN_SOURCE } from './entries';
import * as schemas from './schemas';

const TAG = 'Mapping book';
const POSITION_GONE = {
  description: `The position is older than the feed keeps (${CHANGES_RETENTION_DAYS} days)`,
  schema: ErrorResponse,
} as const;
const readBook = { table: 'read', objects: { read: [BOOK_FILES_PREFIX] }, resultObjects: { read: [BOOK_DERIVED_PREFIX] } } as const;
const readFeed = { table: 'read', resultObjects: { read: [BOOK_CHANGES_PREFIX] } } as const;

export const mappingBookRoutes = {
  getMappingBook: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping-book',
    handler: 'mapping-book/get',
    auth: 'required',
    tag: TAG,
    summary: "The organization's mapping book at a glance: its entries per source, by status and by method, and where its change feed ends",
    description:
      'The counts include every decision made so far. A job being written into the book is named in `writing`; its changes show once it commits. ' +
      'Read the unmapped entries with GET /api/v1/mapping-book/entries?status=UNMATCHED, the ones to review with status=REVIEW.',
    responses: { 200: { description: 'The book', schema: schemas.BookView }, 401: errors[401] },
    access: { table: 'read', objects: { read: [BOOK_FILES_PREFIX] }, resultObjects: { read: [BOOK_DERIVED_PREFIX] } },
  }),
  listBookEntries: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping-book/entries',
    handler: 'mapping-book/list-entries',
    auth: 'required',
    tag: TAG,
    summary: "The organization's mapping book: one entry per partner hotel of each source, as jobs and people left it",
    description:
      'Entries in partner hotel id order (then source), filtered by source, status, method and score. DELETED entries show only with ' +
      "`status=DELETED`. A filter by status, method or source reads the book's index of it; the score bounds narrow what it finds. " +
      'A page may hold fewer entries than `limit` with a `nextCursor` to go on (a score bound alone reads the book in order). Every completed job writes its rows ' +
      "into the book a moment after it completes; a person's decision (here or on a job's row) shows at once. " +
      'A search (partnerHotelId, name, city, country, referenceHotelId, supplier, combined with each other and with the filters) answers in ' +
      'the same order with the total that matched, every page full.',
    query: schemas.EntriesQuery,
    responses: { 200: { description: 'A page of entries', schema: schemas.EntryPage }, 400: errors[400], 401: errors[401] },
    access: readBook,
    // A search scans the book's columns, kept in memory (a million entries, about 150 MB), on 0.58 vCPU.
    lambda: { memoryMb: 1024, timeoutSeconds: 15 },
  }),
  getBookEntry: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping-book/entry',
    handler: 'mapping-book/get-entry',
    auth: 'required',
    tag: TAG,
    summary: 'One entry of the book, with its decision and its history',
    description: `The entry of a partner hotel id in a source (default ${OWN_SOURCE}), DELETED ones included.`,
    query: schemas.EntryQuery,
    responses: {
      200: { description: 'The entry', schema: schemas.EntryView },
      400: errors[400],
      401: errors[401],
      404: { description: 'The book has no entry of this partner hotel id in this source', schema: ErrorResponse },
    },
    access: readBook,
  }),
  reviewBookEntry: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping-book/reviews',
    handler: 'mapping-book/review',
    auth: 'required',
    tag: TAG,
    summary:
      'Decide an entry of the book: MATCH it to a reference hotel, or NO_MATCH, or WITHDRAW a decision. A decision stands against later jobs',
    description:
      'The entry becomes MANUAL, with a change in the feed. Later jobs keep it and record what the engine said beside it, unless the ' +
      "partner's hotel changes materially: then it goes back to REVIEW with the reason, showing this decision. A decision on a job's row " +
      "(POST /api/v1/mapping/{jobId}/reviews) decides its entry the same way. WITHDRAW takes the entry's decision back: the engine's answer stands again.",
    body: {
      kind: 'json',
      schema: schemas.BookReviewRequest,
      example: {
        source: OWN_SOURCE,
        partnerHotelId: 'H-1001',
        decision: 'MATCH',
        referenceHotelId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        note: 'Checked the address',
      },
    },
    responses: {
      200: { description: 'The entry as decided', schema: schemas.EntryView },
      400: { description: 'Bad body, or referenceHotelId is not a reference hotel', schema: ErrorResponse },
      401: errors[401],
      404: { description: 'The book has no entry of this partner hotel id in this source', schema: ErrorResponse },
      409: {
        description: 'WITHDRAW of an entry without a decision, or expectedDecidedAt is not the decision the entry holds',
        schema: ErrorResponse,
      },
      413: errors[413],
      415: errors[415],
    },
    access: {
      table: 'readwrite',
      objects: { read: [RECORD_PAGES_PREFIX, BOOK_FILES_PREFIX] },
      resultObjects: { read: [BOOK_DERIVED_PREFIX] },
    },
  }),
  listBookChanges: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping-book/changes',
    handler: 'mapping-book/list-changes',
    auth: 'required',
    tag: TAG,
    summary: 'The change feed: NEW, UPDATED and DELETED entries after a position, in the order they were written',
    description:
      'Pass back the `position` of the previous page as `after`: a reader that does so misses nothing and reads nothing twice, ' +
      'while jobs, people and reference changes write (changes are numbered in commits, and a commit is visible only with every one ' +
      `before it). Positions stay valid ${CHANGES_RETENTION_DAYS} days, then answer 410: read the book whole and follow on from the ` +
      'position GET /api/v1/mapping-book/changes/counts gives.',
    query: schemas.ChangesQuery,
    responses: {
      200: { description: 'A page of changes', schema: schemas.ChangePage },
      400: errors[400],
      401: errors[401],
      410: POSITION_GONE,
    },
    access: readFeed,
  }),
  countBookChanges: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping-book/changes/counts',
    handler: 'mapping-book/count-changes',
    auth: 'required',
    tag: TAG,
    summary: 'How many entries are NEW, UPDATED and DELETED after a position, and the position after them',
    description: 'Without `after`, since the oldest change kept: its `position` is where a new reader starts following the feed.',
    query: schemas.CountsQuery,
    responses: { 200: { description: 'The counts', schema: schemas.ChangeCounts }, 400: errors[400], 401: errors[401], 410: POSITION_GONE },
    access: readFeed,
  }),
  exportMappingBook: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping-book/export',
    throttle: { ratePerSecond: 4, burst: 8 },
    handler: 'mapping-book/export',
    auth: 'required',
    tag: TAG,
    summary: "Write the book's entries of one source in the organization's export format; answers a download URL once the file is ready",
    description:
      'Every entry of the source but the DELETED ones, in partner hotel id order, decisions included, in the saved export format ' +
      '(PUT /api/v1/export-format; without one: CSV, every field, comma, header row, uncompressed). The first request prepares the file in ' +
      'the background and answers 202 with Retry-After; repeat the same request after that many seconds: 202 while it is written, then 200 ' +
      `with the URL. The ready file is answered again (with a new URL) until the book changes, the format changes, or ${EXPORT_KEPT_DAYS} days pass; ` +
      'then the next request prepares a new one. Its `position` is where to follow the feed from: every change before it is in the file ' +
      '(a change after it may be too: applying it again changes nothing). ' +
      `An XLSX file is one sheet: a source of more than ${XLSX_MAX_ROWS.toLocaleString('en-US')} entries answers 409 in XLSX. ` +
      'The file downloads as `mapping-book-<source>-<position>.<csv|json|jsonl|xlsx>` (`.gz` after it when compressed).',
    query: schemas.ExportQuery,
    responses: {
      200: { description: 'The file', schema: schemas.BookExportReady },
      202: {
        description: 'The file is being prepared. Repeat the request after Retry-After seconds',
        schema: schemas.BookExportPreparing,
        headers: { 'Retry-After': 'Seconds after which the file is likely ready' },
      },
      400: errors[400],
      401: errors[401],
      409: {
        description: `The saved format is XLSX and the source has more than ${XLSX_MAX_ROWS.toLocaleString('en-US')} entries`,
        schema: ErrorResponse,
      },
    },
    // In XLSX it counts the source's entries first, from the book's generation.
    access: {
      table: 'readwrite',
      objects: { read: [BOOK_FILES_PREFIX] },
      resultObjects: { read: [BOOK_EXPORTS_PREFIX, BOOK_DERIVED_PREFIX] },
      sendsTo: ['mapping-book-exports'],
    },
  }),
};
