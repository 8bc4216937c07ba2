import { errors } from '../platform/http/responses';
import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import { XLSX_MAX_ROWS } from '../export-format';
import { BOOK_DERIVED_PREFIX, BOOK_FILES_PREFIX, DECISIONS_PER_COMMIT } from '../mapping-book';
import { MATCHING_INDEX_PREFIX, RECORD_PAGES_PREFIX } from '../reference';
import { EXPORT_MAX_ROWS, EXPORT_SYNC_MAX_ROWS } from './export-preparation';
import { FIND_MATCH_MAX_HOTELS, FIND_MATCH_MAX_INSTANCES, FIND_MATCH_MIN_CHARGE } from './find-match';
import { EXPORTS_PREFIX } from '../export-format';
import { JOB_RESULTS_PREFIX, RESULTS_RETENTION_DAYS } from './job';
import { REVIEW_BATCH_MAX_ROWS } from './review';
import { LEASE_SECONDS } from './leases';
import * as schemas from './schemas';

const TAG = 'Mapping';
const JOB_NOT_FOUND = { description: 'No such job in your organization', schema: ErrorResponse } as const;
const RESULTS_GONE = {
  description: `The job's results are past their retention (${RESULTS_RETENTION_DAYS} days from its creation: the job's expiresAt)`,
  schema: ErrorResponse,
} as const;

export const mappingJobRoutes = {
  createMappingJob: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping',
    handler: 'mapping-jobs/create',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: 'Map a READY partner inventory against the reference inventory (runs asynchronously)',
    description:
      "Reserves the inventory's hotelCount mappings (today's allowance first, then credits), pins the current reference " +
      'publication, and queues the job. Poll GET /api/v1/mapping/{jobId}. ID_TO_ID and HYBRID need an inventory with a ' +
      'supplierCode of a supplier the organization is connected to.\n\n' +
      'A job charges its new and changed rows: a row the mapping book already holds as it is (same partner id and source, every field ' +
      'the same, mapped in the same mode through the same supplier against the same publication) is answered from the book without ' +
      'mapping it again, counted in `counts.unchanged`, and not charged. The reservation is settled at `counts.processed - counts.unchanged`.',
    body: {
      kind: 'json',
      schema: schemas.CreateJobRequest,
      example: { partnerInventoryId: '9a3c5e7f-2b4d-4f6a-8c1e-3d5f7a9b1c2e', name: 'Spain, November upload', mode: 'STANDARD' },
    },
    responses: {
      201: { description: 'Job created (PENDING)', schema: schemas.JobCreated },
      400: {
        description:
          'Bad body or mode; the inventory is not READY; ID_TO_ID or HYBRID without a supplierCode or a connected, supported supplier',
        schema: ErrorResponse,
      },
      401: errors[401],
      403: { description: "Today's allowance and the credits do not cover the inventory's rows", schema: ErrorResponse },
      404: { description: 'No such inventory in your organization', schema: ErrorResponse },
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite', sendsTo: ['mapping-chunks'], schedules: ['mapping-deadlines'] },
  }),
  findMatch: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping/match',
    handler: 'mapping-jobs/find-match',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: `Find a match now: map 1 to ${FIND_MATCH_MAX_HOTELS} hotels within the request`,
    description:
      "Maps the hotels against the current reference publication with the engine, model and modes a job uses, and answers each in the request's " +
      "order as a job's result row holds it (status, reference hotel, calibrated score, evidence, candidates, reason). A hotel an inventory " +
      'would refuse (no id, no name, an id used twice, a latitude out of range…) is answered REJECTED with the reason, not mapped and not charged. ' +
      "The cross-row claim rule applies among the request's hotels as among a job's rows: two hotels that want one reference hotel leave the " +
      `weaker in REVIEW. A request that maps any hotel is charged one mapping a hotel, and at least ${FIND_MATCH_MIN_CHARGE} (a request costs ` +
      "the same whatever it holds), within the request (today's allowance first, then credits); one whose hotels are all REJECTED is charged " +
      `nothing. 403 when the allowance and credits do not cover the charge, and nothing is mapped. More than ${FIND_MATCH_MAX_HOTELS} hotels, or a body over its size, is refused whole. ` +
      "With `record`, the answers are also written into the organization's mapping book as a job's rows are, their changes in its feed " +
      "(by the book's record queue, within seconds; the answers are the entries they make). Nothing is charged or recorded before the " +
      'answers are ready: a request sent again with its Idempotency-Key after its first attempt died is answered at no new charge.',
    body: {
      kind: 'json',
      schema: schemas.FindMatchRequest,
      example: {
        hotels: [
          {
            id: 'H-1001',
            name: 'Hotel Lutetia',
            address: '45 Boulevard Raspail',
            city: 'Paris',
            postalCode: '75006',
            country: 'FR',
            lat: 48.8512,
            lon: 2.3274,
          },
        ],
        mode: 'STANDARD',
      },
    },
    responses: {
      200: { description: 'One answer per hotel, in order', schema: schemas.FindMatchResponse },
      400: {
        description: `Not 1 to ${FIND_MATCH_MAX_HOTELS} hotels, a bad mode, ID_TO_ID or HYBRID without a connected supplier, or no reference published yet`,
        schema: ErrorResponse,
      },
      401: errors[401],
      403: { description: "Today's allowance and the credits do not cover the hotels", schema: ErrorResponse },
      413: errors[413],
      415: errors[415],
    },
    // The pinned matching index stays in memory between requests: a million hotels take about 0.75 GB.
    // The book's generation answers the hotels it holds; what is recorded, the book's record queue writes.
    access: {
      table: 'readwrite',
      objects: { read: [MATCHING_INDEX_PREFIX, BOOK_FILES_PREFIX] },
      resultObjects: { read: [BOOK_DERIVED_PREFIX] },
    },
    // At most this many at once: 2 GB for up to 28 s each, it could otherwise take the account's concurrency from every other function.
    lambda: { memoryMb: 2048, timeoutSeconds: 28, reservedConcurrency: FIND_MATCH_MAX_INSTANCES },
  }),
  listMappingJobs: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping',
    handler: 'mapping-jobs/list',
    auth: 'required',
    tag: TAG,
    summary: "The organization's mapping jobs, newest first",
    description:
      'Paginated with `limit` and `cursor` (pass back `nextCursor`; null on the last page). Each job as GET /api/v1/mapping/{jobId} shows it.',
    query: schemas.JobListQuery,
    responses: { 200: { description: 'A page of jobs', schema: schemas.JobList }, 400: errors[400], 401: errors[401] },
    access: { table: 'read' },
  }),
  getMappingPreferences: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping/preferences',
    handler: 'mapping-jobs/get-preferences',
    auth: 'required',
    tag: TAG,
    summary: 'The mode POST /api/v1/mapping uses when none is given (STANDARD until set)',
    description: "The organization's default mapping mode, STANDARD until it is set with PUT.",
    responses: { 200: { description: 'The preferences', schema: schemas.Preferences }, 401: errors[401] },
    access: { table: 'read' },
  }),
  putMappingPreferences: defineRoute({
    method: 'PUT',
    path: '/api/v1/mapping/preferences',
    handler: 'mapping-jobs/put-preferences',
    auth: 'required',
    tag: TAG,
    summary: 'Set the default mapping mode',
    description: 'STANDARD, ID_TO_ID or HYBRID; jobs created afterwards without a mode use it. Jobs already created keep their mode.',
    body: { kind: 'json', schema: schemas.PreferencesRequest, example: { defaultMode: 'HYBRID' } },
    responses: {
      200: { description: 'The saved preferences', schema: schemas.Preferences },
      400: errors[400],
      401: errors[401],
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite' },
  }),
  getMappingJob: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping/{jobId}',
    handler: 'mapping-jobs/get',
    auth: 'required',
    tag: TAG,
    summary: 'A job: status, counts, progress, timestamps and error',
    description:
      "Poll it while the job runs: `counts` and `progress` grow chunk by chunk. A COMPLETED job's results can be read, reviewed and exported; " +
      "a FAILED job's `error` says why; a CANCELLED one was cancelled by the partner. However a job ends, `counts.processed` rows are what " +
      'its results and export hold, and it charged those less `counts.unchanged` (rows answered from the mapping book as they were).',
    params: schemas.JobIdParams,
    responses: { 200: { description: 'The job', schema: schemas.JobView }, 400: errors[400], 401: errors[401], 404: JOB_NOT_FOUND },
    access: { table: 'read' },
  }),
  cancelMappingJob: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping/{jobId}/cancel',
    handler: 'mapping-jobs/cancel',
    auth: 'required',
    tag: TAG,
    summary: 'Cancel a PENDING or RUNNING job: its remaining rows are not mapped; the rows it processed are charged, the rest released',
    description:
      'Answers the job, CANCELLED, with the counts it had reached: `counts.processed` rows (less `counts.unchanged`) are charged, and exactly those rows stay ' +
      'readable through results and export (a chunk still being mapped at the cancel is neither charged nor shown). ' +
      'A cancelled job is not reviewed. Cancelling a cancelled job answers it again.',
    params: schemas.JobIdParams,
    responses: {
      200: { description: 'The job, CANCELLED', schema: schemas.JobView },
      400: errors[400],
      401: errors[401],
      404: JOB_NOT_FOUND,
      409: { description: 'The job completed or failed before it could be cancelled', schema: ErrorResponse },
    },
    access: { table: 'readwrite' },
  }),
  listMappingResults: defineRoute({
    method: 'GET',
    path: '/api/v1/mapping/{jobId}/results',
    handler: 'mapping-jobs/results',
    auth: 'required',
    tag: TAG,
    summary: "A job's results, one row per partner hotel, with evidence, candidates and decisions",
    description:
      "A COMPLETED job's rows come in partner hotel id order without a filter; with status, method or a score range, best score first. " +
      'partnerHotelId finds one row. A search (name, city, country, referenceHotelId, supplier, combined with each other and with the filters) ' +
      'answers in partner hotel id order, with the total that matched on a COMPLETED job; each row shows what a person decided. ' +
      'Results appear as chunks are counted: a RUNNING job shows the rows counted so far, and a CANCELLED or ' +
      'FAILED job the rows it processed and charged, chunk by chunk (each chunk in partner hotel id order, or best score first with a filter). ' +
      'A page may hold fewer rows than `limit` with a `nextCursor` to go on. ' +
      `Results are kept ${RESULTS_RETENTION_DAYS} days from the job's creation (its \`expiresAt\`), then answer 410.`,
    params: schemas.JobIdParams,
    query: schemas.ResultsQuery,
    responses: {
      200: { description: 'A page of results', schema: schemas.ResultPage },
      400: errors[400],
      401: errors[401],
      404: JOB_NOT_FOUND,
      410: RESULTS_GONE,
    },
    // A completed job's rows are files (its views); the table holds the job and the decisions.
    access: { table: 'read', resultObjects: { read: [JOB_RESULTS_PREFIX] } },
    // A search scans every part's columns, kept in memory (a million rows: 10 parts, about 150 MB; bench:result-search), on 0.58 vCPU.
    lambda: { memoryMb: 1024, timeoutSeconds: 15 },
  }),
  reviewMappingResult: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping/{jobId}/reviews',
    handler: 'mapping-jobs/review',
    auth: 'required',
    tag: TAG,
    summary: 'Resolve a result row: MATCH it to a reference hotel (a candidate or any other), or NO_MATCH',
    description:
      'Records who decided and when, shows in results and exports, and emits MAPPING_ERROR_RESOLVED. A row can be reviewed again.',
    params: schemas.JobIdParams,
    body: {
      kind: 'json',
      schema: schemas.ReviewRequest,
      example: {
        decision: 'MATCH',
        partnerHotelId: 'H-1001',
        referenceHotelId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        note: 'Same hotel: checked the address',
      },
    },
    responses: {
      200: { description: 'The row as decided', schema: schemas.ResultView },
      400: { description: 'Bad body, or referenceHotelId is not a reference hotel', schema: ErrorResponse },
      401: errors[401],
      404: { description: 'No such job in your organization, or no such row in the job', schema: ErrorResponse },
      409: { description: 'The job has not completed, or another request decided the row meanwhile', schema: ErrorResponse },
      410: RESULTS_GONE,
      413: errors[413],
      415: errors[415],
    },
    // A decision may name any reference hotel: its record is read from the reference files.
    // The decision goes into the mapping book too, whose entry it reads.
    access: {
      table: 'readwrite',
      objects: { read: [RECORD_PAGES_PREFIX, BOOK_FILES_PREFIX] },
      resultObjects: { read: [JOB_RESULTS_PREFIX, BOOK_DERIVED_PREFIX] },
    },
  }),
  reviewMappingResults: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping/{jobId}/reviews/batch',
    handler: 'mapping-jobs/review-batch',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: `Decide up to ${REVIEW_BATCH_MAX_ROWS} rows in one request: a bulk accept, a bulk NO_MATCH, or their undo`,
    description:
      "Each decision is checked as POST /api/v1/mapping/{jobId}/reviews checks it (give each row's `expectedDecidedAt` to decide only what you read), " +
      'and answered in `decided` (the rows as they now are) or `refused` (what a single review would have answered: 400, 404 or 409, and why). ' +
      'A refused row changes nothing; the others are decided. Rows are committed ' +
      `${DECISIONS_PER_COMMIT} at a time, each group whole: a request cut short leaves whole groups decided, and sent again with the same ` +
      '`expectedDecidedAt` values answers those rows 409 (changed since you read it). With an Idempotency-Key header, a repeated request answers the first answer again. ' +
      'Each decided row emits MAPPING_ERROR_RESOLVED, as a single review does. A row appears once in a batch.',
    params: schemas.JobIdParams,
    body: {
      kind: 'json',
      schema: schemas.ReviewBatchRequest,
      // Five hundred decisions with notes of up to 1,000 characters.
      maxBytes: 1024 * 1024,
      example: {
        decisions: [
          {
            decision: 'MATCH',
            partnerHotelId: 'H-1001',
            referenceHotelId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            expectedDecidedAt: null,
          },
          { decision: 'NO_MATCH', partnerHotelId: 'H-1002', note: 'Closed', expectedDecidedAt: null },
        ],
      },
    },
    responses: {
      200: { description: 'Each row decided or refused', schema: schemas.ReviewBatchResponse },
      400: {
        description: 'Bad body: a decision malformed, a row named twice, or more than the limit (nothing decided)',
        schema: ErrorResponse,
      },
      401: errors[401],
      404: JOB_NOT_FOUND,
      409: { description: 'The job has not completed', schema: ErrorResponse },
      410: RESULTS_GONE,
      413: errors[413],
      415: errors[415],
    },
    access: {
      table: 'readwrite',
      objects: { read: [RECORD_PAGES_PREFIX, BOOK_FILES_PREFIX] },
      resultObjects: { read: [JOB_RESULTS_PREFIX, BOOK_DERIVED_PREFIX] },
    },
    // Five hundred rows read and committed in about twenty transactions.
    lambda: { memoryMb: 1024, timeoutSeconds: 28 },
  }),
  leaseMappingResults: defineRoute({
    method: 'PUT',
    path: '/api/v1/mapping/{jobId}/leases/{holder}',
    handler: 'mapping-jobs/lease',
    auth: 'required',
    tag: TAG,
    summary: 'Lease the rows a reviewer is about to show, so that no other reviewer is shown them at once',
    description:
      "For several people working one job's queue. Each reviewer names itself with a `holder` it makes up (one per person and screen) and asks for the rows it is about to show: " +
      `each is leased to it for \`seconds\` (default ${LEASE_SECONDS.default}) unless another holder's lease stands, and renewed by asking again; its other rows are released. ` +
      '`taken` lists the rows another reviewer holds: skip them. `leased` says when each row was last decided, so a row someone decided since you read it can be skipped too. ' +
      'A review (single or batch) naming another `leaseHolder`, or none, on a leased row answers 409. DELETE releases every row of the holder when the reviewer leaves.',
    params: schemas.LeaseParams,
    body: { kind: 'json', schema: schemas.LeaseRequest, example: { partnerHotelIds: ['H-1001', 'H-1002', 'H-1003'], seconds: 90 } },
    responses: {
      200: { description: 'The rows leased to you, and those another reviewer holds', schema: schemas.LeaseResponse },
      400: errors[400],
      401: errors[401],
      404: JOB_NOT_FOUND,
      409: { description: 'The job has not completed', schema: ErrorResponse },
      410: RESULTS_GONE,
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite' },
  }),
  leaveMappingResults: defineRoute({
    method: 'DELETE',
    path: '/api/v1/mapping/{jobId}/leases/{holder}',
    handler: 'mapping-jobs/leave',
    auth: 'required',
    tag: TAG,
    summary: "Release every row a reviewer holds: it left the job's queue",
    description: 'Other reviewers are shown them at once. Leases end by themselves too, `seconds` after they were last asked for.',
    params: schemas.LeaseParams,
    responses: { 204: { description: 'Released' }, 400: errors[400], 401: errors[401], 404: JOB_NOT_FOUND },
    access: { table: 'readwrite' },
  }),
  exportMappingResults: defineRoute({
    method: 'POST',
    path: '/api/v1/mapping/{jobId}/export',
    // An export of up to 80,000 rows is written within the request, for up to 28 s on 2 GB; a larger one queues a worker.
    throttle: { ratePerSecond: 4, burst: 8 },
    handler: 'mapping-jobs/export',
    auth: 'required',
    tag: TAG,
    summary: "Write the job's results, decisions included, in the organization's export format; answers a download URL",
    description:
      'Uses the saved export format (PUT /api/v1/export-format); without one: CSV, every field, comma, header row, uncompressed. ' +
      'A CANCELLED or FAILED job exports the rows it processed and charged.\n\n' +
      `A job of up to ${EXPORT_SYNC_MAX_ROWS.toLocaleString('en-US')} rows is written at once: 200 with the URL. A larger one is prepared in the background: ` +
      '202 with Retry-After; repeat the same request after that many seconds, and it answers 202 while the file is written, then 200 with the URL. ' +
      'Repeating it never starts a second export: one is prepared per job at a time. The ready file is answered again (with a new URL) ' +
      'until a review changes a row, the export format changes, or 6 days pass; then the next request prepares a new one. ' +
      'A format saved while an export is prepared applies from the next one: that export finishes in the format it was asked in (the 202 says which). ' +
      `A job of more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows (${XLSX_MAX_ROWS.toLocaleString('en-US')} in XLSX, one sheet) is not exported as one file (409): read its rows through the results.\n\n` +
      'The file downloads as `mapping-<mappingJobId>.<csv|json|jsonl|xlsx>`, with `.gz` after it when compressed.',
    params: schemas.JobIdParams,
    responses: {
      200: { description: 'The file', schema: schemas.ExportResponse },
      202: {
        description: 'A large job: its file is being prepared. Repeat the request after Retry-After seconds',
        schema: schemas.ExportPreparing,
        headers: { 'Retry-After': 'Seconds after which the file is likely ready' },
      },
      400: errors[400],
      401: errors[401],
      404: JOB_NOT_FOUND,
      409: {
        description: `The job is still PENDING or RUNNING, or it has more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows (${XLSX_MAX_ROWS.toLocaleString('en-US')} in XLSX)`,
        schema: ErrorResponse,
      },
      410: RESULTS_GONE,
    },
    access: {
      table: 'readwrite',
      resultObjects: { read: [JOB_RESULTS_PREFIX, EXPORTS_PREFIX], write: [EXPORTS_PREFIX] },
      sendsTo: ['mapping-exports'],
    },
    // Under the gateway's 29 s, so the function never outlives its request; the rows written at once take about 10 s.
    lambda: { memoryMb: 2048, timeoutSeconds: 28 },
  }),
} satisfies Record<string, RouteDefinition>;
