import * as v from 'valibot';
import { EXPORT_FORMATS } from '../export-format';
import {
  CandidateSchema as Candidate,
  CONFIDENCE_CUTOFFS,
  CONFIDENCE_LEVELS,
  MAPPING_EXPORT_COLUMNS,
  MAPPING_MODES,
  MatchEvidenceSchema as Evidence,
  REASON_CODE_MEANINGS,
  REASON_CODES,
  referenceHotelFactFields,
  ScoreParam as Score,
  answerSearchFields,
  SCORE_ORDERS,
  SearchTotal,
} from '../mapping';
import { NextCursor, pageQuery, Text, Timestamp, Uuid } from '../platform/http/schemas';
import { JOB_STATUSES, RESULT_METHODS, RESULT_STATUSES, RESULTS_RETENTION_DAYS, SCORE_BINS } from './job';

import { FIND_MATCH_MAX_HOTELS, FIND_MATCH_MIN_CHARGE } from './find-match';
import { REVIEW_BATCH_MAX_ROWS } from './review';
import { LEASE_SECONDS, LEASED_ROWS_MAX } from './leases';
import { JobCounts } from '../events';
import { expectedDecidedAt, PartnerFactsSchema } from '../mapping-book';

const Mode = v.picklist(MAPPING_MODES, 'must be STANDARD, ID_TO_ID or HYBRID');
// Compared with the ids the inventory file gave, so not trimmed.
const PartnerHotelId = Text({ maxLength: 200, trim: false });

const JobName = v.pipe(
  Text({ maxLength: 200 }),
  v.description("A name people know the job by (at most 200 characters); default the inventory's name"),
  v.examples(['Spain, November upload']),
);

export const CreateJobRequest = v.strictObject({
  partnerInventoryId: Uuid,
  name: v.optional(JobName),
  mode: v.optional(v.pipe(Mode, v.description("Default: the organization's preference (GET /api/v1/mapping/preferences), else STANDARD"))),
  partial: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        'true when the inventory holds only some of its hotels: the job writes its rows into the mapping book and ends no entry. ' +
          "Default false: the inventory is the whole of its sources' hotels, and the book's entries of those sources that it no longer holds become DELETED.",
      ),
      v.examples([false]),
    ),
  ),
});

export const JobIdParams = v.object({
  jobId: v.pipe(Uuid, v.description("The job's mappingJobId"), v.examples(['5b2f8c1e-7a4d-4e0b-9c3a-2d6f1e8b4a70'])),
});

const LeaseHolder = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _'),
  v.description("A name the reviewer's client makes up, one per person and screen (a random id): it holds the rows it leases"),
  v.examples(['b1f7c2d4-reviewer-tab']),
);

export const LeaseParams = v.object({
  ...JobIdParams.entries,
  holder: LeaseHolder,
});

export const LeaseRequest = v.strictObject({
  partnerHotelIds: v.pipe(
    v.array(PartnerHotelId),
    v.maxLength(LEASED_ROWS_MAX, `must hold at most ${LEASED_ROWS_MAX} rows`),
    v.description(
      `The rows the reviewer is about to show (at most ${LEASED_ROWS_MAX}): leased, or renewed, unless another holder has them. Its other rows are released; [] releases them all.`,
    ),
  ),
  seconds: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number of seconds'),
      v.minValue(LEASE_SECONDS.min, `must be at least ${LEASE_SECONDS.min}`),
      v.maxValue(LEASE_SECONDS.max, `must be at most ${LEASE_SECONDS.max}`),
      v.description(`How long the leases last unless asked for again (default ${LEASE_SECONDS.default})`),
    ),
  ),
});

export const LeaseResponse = v.object({
  leased: v.pipe(
    v.array(
      v.object({
        partnerHotelId: v.string(),
        expiresAt: Timestamp,
        decidedAt: v.pipe(
          v.nullable(Timestamp),
          v.description("The row's review.decidedAt now (null: undecided): a row someone decided since you read it shows here"),
        ),
      }),
    ),
    v.description('The rows leased to you now'),
  ),
  taken: v.pipe(
    v.array(v.object({ partnerHotelId: v.string(), expiresAt: Timestamp })),
    v.description('The rows another reviewer holds, and until when: skip them'),
  ),
});

/** Null on jobs created before jobs had names. */
const ShownJobName = v.pipe(
  v.nullable(v.string()),
  v.description("The job's name: the one given at creation, else its inventory's; null on jobs created before jobs had names"),
);

export const JobCreated = v.object({
  mappingJobId: Uuid,
  name: ShownJobName,
  partnerInventoryId: Uuid,
  status: v.literal('PENDING'),
  mode: Mode,
  createdAt: Timestamp,
});

const ScoreBins = v.pipe(v.array(v.number()), v.minLength(SCORE_BINS), v.maxLength(SCORE_BINS));

export const JobView = v.object({
  mappingJobId: Uuid,
  name: ShownJobName,
  partnerInventoryId: Uuid,
  status: v.pipe(
    v.picklist(JOB_STATUSES),
    v.description('PENDING -> RUNNING -> COMPLETED, or FAILED with error, or CANCELLED by POST /mapping/{jobId}/cancel'),
  ),
  mode: Mode,
  partial: v.pipe(v.boolean(), v.description('Whether the inventory was declared partial: its write into the mapping book ends no entry')),
  supplierCode: v.optional(v.pipe(v.string(), v.description('The connected supplier whose hotel codes ID_TO_ID and HYBRID use'))),
  referenceVersionId: v.pipe(v.string(), v.description('The reference publication the job maps against (pinned at creation)')),
  counts: JobCounts,
  progress: v.pipe(v.number(), v.description('processed / total, 0 to 1')),
  createdAt: Timestamp,
  startedAt: v.optional(Timestamp),
  completedAt: v.optional(Timestamp),
  failedAt: v.optional(Timestamp),
  cancelledAt: v.optional(Timestamp),
  updatedAt: Timestamp,
  error: v.optional(v.pipe(v.string(), v.description('Why the job failed (FAILED only)'))),
  scores: v.optional(
    v.pipe(
      v.object({
        histogram: v.pipe(
          v.object({ MATCHED: ScoreBins, REVIEW: ScoreBins, UNMATCHED: ScoreBins }),
          v.description(
            "The engine's rows of each status per tenth of score: the first number counts scores from 0 to 0.1, the last from 0.9 to 1",
          ),
        ),
        expectedWrong: v.pipe(
          v.object({ MATCHED: v.number(), REVIEW: v.number(), UNMATCHED: v.number() }),
          v.description(
            'How many of the rows no person has decided are expected wrong, by the status the engine gave them: the scores are calibrated, so a MATCHED ' +
              "or REVIEW row is wrong with one less its score (REVIEW: if its proposal were taken), an UNMATCHED one with its best candidate's score. " +
              'A decision takes its row out; withdrawing it puts the row back.',
          ),
        ),
      }),
      v.description("A COMPLETED job's scores, written when it completed (absent on jobs completed before jobs carried them)"),
    ),
  ),
  expiresAt: v.pipe(
    Timestamp,
    v.description(
      `When the job's results, decisions and exports are deleted (${RESULTS_RETENTION_DAYS} days after createdAt): from then on they answer 410. The job itself stays listed.`,
    ),
  ),
  bookWrite: v.optional(
    v.pipe(
      v.picklist(['WAITING', 'WRITING', 'WRITTEN', 'ABANDONED']),
      v.description(
        'GET /api/v1/mapping/{jobId} of a COMPLETED job only: where its rows stand in the mapping book. WAITING for its write to begin (another ' +
          "job's may hold the book), WRITING, WRITTEN (the book and its feed hold them), or ABANDONED (the write could not finish; the next job " +
          'over its inventory writes them)',
      ),
    ),
  ),
});

export const JobListQuery = v.strictObject(pageQuery(20, 100));
export const JobList = v.object({ jobs: v.array(JobView), nextCursor: NextCursor });

export const ResultsQuery = v.strictObject({
  ...pageQuery(100, 1000),
  status: v.optional(
    v.pipe(
      v.picklist(RESULT_STATUSES, 'must be MATCHED, REVIEW or UNMATCHED'),
      v.description('Only rows in this status'),
      v.examples(['REVIEW']),
    ),
  ),
  method: v.optional(
    v.pipe(v.picklist(RESULT_METHODS, 'must be ID, FUZZY or MANUAL'), v.description('Only rows decided this way'), v.examples(['FUZZY'])),
  ),
  minScore: v.optional(v.pipe(Score, v.description('Only rows scoring at least this'), v.examples([0.5]))),
  maxScore: v.optional(v.pipe(Score, v.description('Only rows scoring at most this'), v.examples([0.95]))),
  partnerHotelId: v.optional(
    v.pipe(PartnerHotelId, v.description('The one row of this partner hotel id (as the inventory file gave it)'), v.examples(['H-1001'])),
  ),
  order: v.optional(
    v.pipe(
      v.picklist(SCORE_ORDERS, 'must be DESC or ASC'),
      v.description(
        'Rows by score: DESC, best first (the order of any status, method or score filter), or ASC, lowest first: the MATCHED rows likeliest wrong first. ' +
          'Not with a search (name, city, country, referenceHotelId, supplier), which lists rows in partner id order.',
      ),
      v.examples(['ASC']),
    ),
  ),
  ...answerSearchFields,
});

const Review = v.object({
  decision: v.picklist(['MATCH', 'NO_MATCH']),
  previous: v.pipe(
    v.object({ status: v.picklist(RESULT_STATUSES), referenceHotelId: v.nullable(v.string()), score: v.number() }),
    v.description('What the engine had said'),
  ),
  note: v.optional(v.string()),
  decidedBy: v.pipe(v.string(), v.description('The id of the API key that decided')),
  decidedAt: Timestamp,
});

export const ResultView = v.object({
  partnerHotelId: v.string(),
  partnerHotelName: v.string(),
  partnerHotel: v.optional(
    v.pipe(
      PartnerFactsSchema,
      v.description("The partner's hotel as the job's inventory gave it: what the evidence compares with the reference hotel"),
    ),
  ),
  referenceHotelId: v.nullable(v.string()),
  referenceHotelName: v.nullable(v.string()),
  ...referenceHotelFactFields,
  status: v.picklist(RESULT_STATUSES),
  method: v.pipe(v.nullable(v.picklist(RESULT_METHODS)), v.description('MANUAL once a person decided; null when UNMATCHED by the engine')),
  score: v.pipe(v.number(), v.description('0 to 1; 1 for a MATCH a person decided, 0 for their NO_MATCH')),
  confidence: v.pipe(
    v.picklist(CONFIDENCE_LEVELS),
    v.description(
      `How far to trust the row's answer: the engine's probability that it is right (the score of a proposed hotel; one less the best candidate's score when UNMATCHED) ` +
        `from ${CONFIDENCE_CUTOFFS.HIGH} HIGH, from ${CONFIDENCE_CUTOFFS.MEDIUM} MEDIUM, below LOW; a person's decision is HIGH.`,
    ),
    v.examples(['HIGH']),
  ),
  evidence: v.nullable(Evidence),
  candidates: v.pipe(
    v.array(Candidate),
    v.description(
      'The other hotels the engine weighed, likeliest first: never the proposal itself (referenceHotelId). ' +
        "To confirm the proposal, review MATCH with the row's referenceHotelId; to pick a runner-up, with its referenceHotelId.",
    ),
  ),
  reason: v.optional(
    v.pipe(v.string(), v.description('Why the row is held or left unmatched, in words (and a MATCHED row kept by a duplicate listing)')),
  ),
  reasonCode: v.optional(
    v.pipe(
      v.picklist(REASON_CODES),
      v.description(
        `Why a REVIEW or UNMATCHED row is so, for a machine; absent on MATCHED rows. ${REASON_CODES.map((code) => `${code}: ${REASON_CODE_MEANINGS[code]}`).join('; ')}.`,
      ),
      v.examples(['AMBIGUOUS_MATCH']),
    ),
  ),
  review: v.optional(Review),
});

export const ResultPage = v.object({
  results: v.array(ResultView),
  nextCursor: NextCursor,
  total: v.optional(
    v.pipe(
      SearchTotal,
      v.description(
        "With a search parameter (name, city, country, referenceHotelId, supplier) on a COMPLETED job: how many rows match in all, every page's",
      ),
    ),
  ),
});

const ReviewNote = v.optional(Text({ maxLength: 1000, minLength: 0 }));
const ReviewLeaseHolder = v.optional(
  v.pipe(
    LeaseHolder,
    v.description(
      'Your lease holder name, when you lease rows (PUT /api/v1/mapping/{jobId}/leases/{holder}): a row leased to another reviewer is refused with 409',
    ),
  ),
);
const ExpectedDecidedAt = expectedDecidedAt("row's review.decidedAt");

/** A decision on a row: MATCH names the hotel (required), NO_MATCH names none, WITHDRAW takes a decision back (a oneOf in the document). */
const rowDecision = <Extra extends v.ObjectEntries>(extra: Extra) =>
  v.variant(
    'decision',
    [
      v.strictObject({
        partnerHotelId: PartnerHotelId,
        decision: v.pipe(v.literal('MATCH'), v.description('The row is this reference hotel')),
        referenceHotelId: v.pipe(
          Uuid,
          v.description(
            "The hotel the row is: the row's own referenceHotelId to confirm the engine's proposal, one of its candidates " +
              '(the other hotels the engine weighed), or any hotel of the reference inventory',
          ),
        ),
        note: ReviewNote,
        expectedDecidedAt: ExpectedDecidedAt,
        ...extra,
      }),
      v.strictObject({
        partnerHotelId: PartnerHotelId,
        decision: v.pipe(v.literal('NO_MATCH'), v.description('The row is none of the reference hotels')),
        note: ReviewNote,
        expectedDecidedAt: ExpectedDecidedAt,
        ...extra,
      }),
      v.strictObject({
        partnerHotelId: PartnerHotelId,
        decision: v.pipe(
          v.literal('WITHDRAW'),
          v.description(
            "Take the row's decision back (undo): the row shows the engine's answer again, in results, exports and the mapping book",
          ),
        ),
        note: ReviewNote,
        expectedDecidedAt: ExpectedDecidedAt,
        ...extra,
      }),
    ],
    'must be MATCH, NO_MATCH or WITHDRAW',
  );

export const ReviewRequest = rowDecision({ leaseHolder: ReviewLeaseHolder });

/** A decision of a batch: a single review's, its lease holder the batch's. */
const BatchDecision = rowDecision({});

export const ReviewBatchRequest = v.strictObject({
  leaseHolder: ReviewLeaseHolder,
  decisions: v.pipe(
    v.array(BatchDecision),
    v.minLength(1, 'must hold at least one decision'),
    v.maxLength(REVIEW_BATCH_MAX_ROWS, `must hold at most ${REVIEW_BATCH_MAX_ROWS} decisions; send more in further batches`),
    v.description(`Up to ${REVIEW_BATCH_MAX_ROWS} decisions, each on another row, each as POST /api/v1/mapping/{jobId}/reviews takes it`),
  ),
});

const DecidedRow = v.pipe(
  v.object({
    partnerHotelId: v.string(),
    status: v.picklist(RESULT_STATUSES),
    method: v.nullable(v.picklist(RESULT_METHODS)),
    score: v.number(),
    referenceHotelId: v.nullable(v.string()),
    referenceHotelName: v.nullable(v.string()),
    review: v.optional(
      v.pipe(
        v.object({ decision: v.picklist(['MATCH', 'NO_MATCH']), decidedAt: Timestamp }),
        v.description(
          'The decision now standing on the row (absent after a WITHDRAW): its decidedAt is the expectedDecidedAt of a later decision or undo',
        ),
      ),
    ),
  }),
  v.description('A row decided, in brief: the whole row (evidence, candidates, the decision in full) is GET …/results?partnerHotelId='),
);

export const ReviewBatchResponse = v.object({
  decided: v.pipe(v.array(DecidedRow), v.description('The rows decided, as they now are in brief, in the order asked')),
  refused: v.pipe(
    v.array(
      v.object({
        partnerHotelId: v.string(),
        status: v.pipe(v.number(), v.description('What a single review of the row would have answered: 400, 404 or 409')),
        error: v.string(),
        message: v.string(),
      }),
    ),
    v.description('The rows not decided, and why, in the order asked; nothing of them changed'),
  ),
});

const RowField = (description: string) => v.optional(v.pipe(v.unknown(), v.description(description)));

/**
 * A hotel as an inventory row gives it: its values checked as an inventory's rows are, so a bad one
 * is answered as rejected, not refused with the request; a field an inventory row has no column for
 * (a typo) refuses the request, as every unknown field does.
 */
const FindMatchHotel = v.pipe(
  v.strictObject({
    id: RowField("The partner's hotel id (required; unique in the request)"),
    name: RowField('The hotel name (required)'),
    address: RowField('Street address'),
    city: RowField('City'),
    region: RowField('Region or state'),
    postalCode: RowField('Postal code'),
    country: RowField('Country name or ISO code'),
    lat: RowField('Latitude, -90 to 90 (with lon)'),
    lon: RowField('Longitude, -180 to 180 (with lat)'),
    rating: RowField('Stars, 0 to 5'),
    supplierCode: RowField("For ID_TO_ID and HYBRID: the supplier of supplierHotelId (default: the request's supplierCode)"),
    supplierHotelId: RowField("For ID_TO_ID and HYBRID: the hotel's id at that supplier"),
  }),
  v.description("A hotel with an inventory row's fields (the same names and rules as an uploaded inventory's columns); no other field"),
);

export const FindMatchRequest = v.strictObject({
  hotels: v.pipe(
    v.array(FindMatchHotel, 'must be an array of hotels'),
    v.minLength(1, 'must hold at least one hotel'),
    v.maxLength(FIND_MATCH_MAX_HOTELS, `must hold at most ${FIND_MATCH_MAX_HOTELS} hotels: map more through an inventory and a job`),
    v.description(`1 to ${FIND_MATCH_MAX_HOTELS} hotels, answered in the same order`),
  ),
  mode: v.optional(v.pipe(Mode, v.description("Default: the organization's preference (GET /api/v1/mapping/preferences), else STANDARD"))),
  supplierCode: v.optional(
    v.pipe(
      Text({ maxLength: 64 }),
      v.description('For ID_TO_ID and HYBRID: a connected supplier, whose hotel ids the hotels give as supplierHotelId'),
      v.examples(['HOTELBEDS']),
    ),
  ),
  view: v.optional(
    v.pipe(
      v.picklist(['BOOK', 'ENGINE'], 'must be BOOK or ENGINE'),
      v.description(
        "BOOK (default): a hotel the organization's mapping book holds (by source and id) answers the book's entry, a person's decision " +
          "included, unless the partner's hotel changed materially since; ENGINE: the engine's answer for every hotel",
      ),
      v.examples(['BOOK']),
    ),
  ),
  record: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        "true: the answers are also written into the organization's mapping book, as a job's rows are (a person's decision stands unless " +
          "the partner's hotel changed materially; a new hotel becomes a NEW entry), with their changes in the book's feed (cause MATCH). " +
          'Default false: nothing is written',
      ),
      v.examples([false]),
    ),
  ),
});

const { review: _review, ...resultFields } = ResultView.entries;
const FoundMatch = v.object({
  index: v.pipe(v.number(), v.description("The hotel's place in the request, from 0")),
  from: v.pipe(
    v.picklist(['ENGINE', 'BOOK']),
    v.description("ENGINE: the engine's answer now; BOOK: the mapping book's entry of the hotel"),
  ),
  ...resultFields,
});
const RejectedHotel = v.object({
  index: v.pipe(v.number(), v.description("The hotel's place in the request, from 0")),
  status: v.pipe(v.literal('REJECTED'), v.description('Refused for what an inventory row would be refused for: not mapped, not charged')),
  reason: v.pipe(v.string(), v.description('Why, as an inventory validation says it')),
  reasonCode: v.pipe(v.literal('INVALID_INPUT'), v.description('Refused as an inventory row would be')),
});

export const FindMatchResponse = v.object({
  mode: Mode,
  referenceVersionId: v.pipe(v.string(), v.description('The reference publication mapped against: the current one')),
  charged: v.pipe(
    v.number(),
    v.description(
      `Mappings charged: one per hotel mapped (rejected ones are not), and at least ${FIND_MATCH_MIN_CHARGE} when any is mapped`,
    ),
  ),
  results: v.pipe(
    v.array(v.union([FoundMatch, RejectedHotel])),
    v.description("One per hotel, in the request's order: a job's result row, or REJECTED with the reason"),
  ),
});

export const ExportResponse = v.object({
  fileUrl: v.pipe(v.string(), v.description('A presigned URL, valid 1 hour')),
  expiresAt: Timestamp,
  format: v.picklist(EXPORT_FORMATS),
  compression: v.picklist(['none', 'gzip']),
  fields: v.array(v.picklist(MAPPING_EXPORT_COLUMNS)),
  rowCount: v.number(),
});

export const ExportPreparing = v.object({
  status: v.pipe(v.literal('PREPARING'), v.description('The file is being written: repeat the request after Retry-After seconds')),
  requestedAt: v.pipe(Timestamp, v.description('When this export was asked for')),
  format: v.pipe(v.picklist(EXPORT_FORMATS), v.description('The format it is written in: the saved one when it was asked for')),
  compression: v.picklist(['none', 'gzip']),
  fields: v.array(v.picklist(MAPPING_EXPORT_COLUMNS)),
  rowCount: v.pipe(v.number(), v.description('The rows it will hold')),
});

export const Preferences = v.object({ defaultMode: Mode });
export const PreferencesRequest = v.strictObject({ defaultMode: Mode });

/** The shapes the OpenAPI document names (components.schemas), each written once and referenced. */
export const mappingJobComponentSchemas = {
  MappingJob: JobView,
  MappingJobPage: JobList,
  JobCounts,
  MappingResult: ResultView,
  MappingResultPage: ResultPage,
  MatchEvidence: Evidence,
  Candidate,
} as const;
