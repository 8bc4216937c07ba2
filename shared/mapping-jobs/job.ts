/**
 * A mapping job: one partner inventory mapped against the reference publication that was current
 * when the job was created (pinned, so a republish mid-job changes nothing).
 *
 *   PENDING --first chunk--> RUNNING --last chunk--> COMPLETED
 *   PENDING | RUNNING --a chunk dead-letters, the inventory is deleted, or the deadline passes--> FAILED
 *   PENDING | RUNNING --the partner cancels--> CANCELLED
 *
 * One mapping is one valid row of the inventory: the job reserves hotelCount mappings when it is
 * created and, however it ends (completed, failed or cancelled), settles what it processed (the rows
 * of its counted chunks, which are the only rows a partner can read) less the rows answered from the
 * mapping book unchanged (unchanged-rows.ts). The rest is released.
 */
import type { MappingMode, MappingResult, MappingStatus, PartnerHotel, ReferenceHotelFacts, ScoreOrder } from '../mapping';
import { rightProbability } from '../mapping';
import { OWN_SOURCE, type ClaimedAway, type PartnerFacts } from '../mapping-book';
import { EXPORTS_PREFIX } from '../export-format';
import { gone } from '../platform/errors';
import type * as v from 'valibot';
import type { JobCounts as JobCountsSchema } from '../events';

export const JOB_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** How long a job may run before the deadline fails it and releases its reservation. */
export const JOB_DEADLINE_HOURS = 6;

export type JobCounts = v.InferOutput<typeof JobCountsSchema>;

export interface PinnedReference {
  artifactsId: string;
  dataVersionId: string;
  matchingIndexKey: string;
  /** The publication's number (absent on publications made before they were numbered). */
  number?: number;
}

/** The finishing stage's parts (finishing.ts): fixed once the job's last chunk is counted. */
export interface FinishingPlan {
  claimParts: number;
  viewParts: number;
  /** The partitions the scores stage merges, fixed once the views are all written. */
  merges?: string[];
}

/** Where a job's finishing stage stands: its plan, and the parts of each stage done (sets: a redelivered part counts once). */
export interface FinishingState {
  plan: FinishingPlan;
  doneClaimParts?: Set<number>;
  doneViewParts?: Set<number>;
  doneMerges?: Set<string>;
}

export interface MappingJob {
  id: string;
  organizationId: string;
  partnerInventoryId: string;
  /** What people know it by: given at creation, else the inventory's name (absent on older jobs). */
  name?: string;
  mode: MappingMode;
  status: JobStatus;
  /** The connected supplier whose hotel codes ID_TO_ID and HYBRID match. */
  supplier?: { id: string; code: string; name: string };
  reference: PinnedReference;
  chunkCount: number;
  /** Chunks recorded so far (DynamoDB number set: a redelivered chunk is never counted twice). */
  doneChunks?: Set<number>;
  counts: JobCounts;
  /** The inventory holds only some of its sources' hotels: its write into the mapping book ends no entry. */
  partial?: boolean;
  /** When its inventory was uploaded: the book takes jobs' rows in this order (jobs created before it was kept: none). */
  inventoryUploadedAt?: string;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  failedAt?: string;
  cancelledAt?: string;
  updatedAt: string;
  /** Why the job failed (FAILED only). */
  error?: string;
  /** Its rows' scores, written with its counts by the finishing stage (absent on older jobs and until it completes). */
  scores?: ScoreFigures;
}

/** The three statuses an engine's row can have, each with its own figure. */
type ByStatus<T> = Record<MappingStatus, T>;

/**
 * A completed job's scores in one read: its engine rows per status and tenth of score (bin 9 takes
 * 0.9 to 1), and the wrong answers expected among the rows no person has decided (the scores are
 * calibrated: a row is wrong with one less its probability of being right), kept by decisions.
 */
export interface ScoreFigures {
  histogram: ByStatus<number[]>;
  expectedWrong: ByStatus<number>;
}

/** Tenths of score a histogram has. */
export const SCORE_BINS = 10;

/** The probability the engine's answer on a row is wrong, to six places (sums stay exact in the table). */
export function riskOf(row: Pick<StoredResult, 'status' | 'score'>): number {
  return round6(1 - rightProbability(row));
}

/** The score figures of engine rows. */
export function scoreFiguresOf(rows: readonly Pick<StoredResult, 'status' | 'score'>[]): ScoreFigures {
  const figures = emptyScoreFigures();
  for (const row of rows) {
    figures.histogram[row.status][Math.min(SCORE_BINS - 1, Math.floor(row.score * SCORE_BINS))]! += 1;
    figures.expectedWrong[row.status] += riskOf(row);
  }
  return roundedFigures(figures);
}

export function emptyScoreFigures(): ScoreFigures {
  const bins = () => Array.from({ length: SCORE_BINS }, () => 0);
  return { histogram: { MATCHED: bins(), REVIEW: bins(), UNMATCHED: bins() }, expectedWrong: { MATCHED: 0, REVIEW: 0, UNMATCHED: 0 } };
}

/** Two parts' figures as one. */
export function addScoreFigures(a: ScoreFigures, b: ScoreFigures): ScoreFigures {
  const sum = emptyScoreFigures();
  for (const status of RESULT_STATUSES) {
    sum.histogram[status] = a.histogram[status].map((count, bin) => count + b.histogram[status][bin]!);
    sum.expectedWrong[status] = a.expectedWrong[status] + b.expectedWrong[status];
  }
  return roundedFigures(sum);
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
const roundedFigures = (figures: ScoreFigures): ScoreFigures => ({
  histogram: figures.histogram,
  expectedWrong: {
    MATCHED: round6(figures.expectedWrong.MATCHED),
    REVIEW: round6(figures.expectedWrong.REVIEW),
    UNMATCHED: round6(figures.expectedWrong.UNMATCHED),
  },
});

export const RESULT_STATUSES = ['MATCHED', 'REVIEW', 'UNMATCHED'] as const;
export const RESULT_METHODS = ['ID', 'FUZZY', 'MANUAL'] as const;

/** The status, method and score filters of a results query, and the order of scores. */
export interface ResultFilter {
  status?: (typeof RESULT_STATUSES)[number];
  method?: (typeof RESULT_METHODS)[number];
  minScore?: number;
  maxScore?: number;
  partnerHotelId?: string;
  order?: ScoreOrder;
}

/** The decision a person made on a result row. */
export interface ReviewDecision {
  decision: 'MATCH' | 'NO_MATCH';
  /** What the engine had said. */
  previous: { status: MappingStatus; referenceHotelId: string | null; score: number };
  note?: string;
  /** The API key that decided. */
  decidedBy: string;
  decidedAt: string;
}

/** A row of a job's results: the engine's result, as a review may have changed it. */
export interface StoredResult extends Omit<MappingResult, 'method'> {
  /** The chunk that mapped the row: the row is readable once that chunk is counted (and paid for). */
  chunk: number;
  /** MANUAL once a person decided. */
  method: MappingResult['method'] | 'MANUAL';
  review?: ReviewDecision;
  /**
   * The hotel the engine proposed, with its name and evidence, kept from the first review on (not
   * shown): accepting it again after a NO_MATCH restores them.
   */
  proposal?: Pick<MappingResult, 'referenceHotelName' | 'evidence'> & ReferenceHotelFacts & { referenceHotelId: string };
  /** The book source the row belongs to (its supplier code, or the organization's own): not shown. */
  source?: string;
  /** What the partner said of the hotel, which the book keeps with its entry: not shown. */
  partner?: PartnerFacts;
  /** What the engine's answer was computed from (unchanged-rows.ts): not shown. */
  basis?: string;
  /** Answered from the mapping book, unchanged since its entry: not charged. Not shown. */
  unchanged?: true;
  /** The engine's own answer where the cross-row rule changed it: not shown. */
  unclaimed?: ClaimedAway;
}

/** A row's result with what the mapping book keeps of the partner's row beside it. */
export function withPartnerFacts<T extends MappingResult>(
  result: T,
  row: PartnerHotel,
): T & Required<Pick<StoredResult, 'source' | 'partner'>> {
  const partner: PartnerFacts = { name: row.name };
  if (row.address) partner.address = row.address;
  if (row.postalCode) partner.postalCode = row.postalCode;
  if (row.city) partner.city = row.city;
  if (row.country) partner.country = row.country;
  if (row.lat !== undefined && row.lon !== undefined) Object.assign(partner, { latitude: row.lat, longitude: row.lon });
  return { ...result, ...bookEntryId(row), partner };
}

/** The book entry a partner's row is: its id in its source (its supplier code, or the organization's own). */
export function bookEntryId(row: Pick<PartnerHotel, 'id' | 'supplierCode'>): { source: string; partnerHotelId: string } {
  return { source: row.supplierCode ?? OWN_SOURCE, partnerHotelId: row.id };
}

/**
 * Whether a partner may read a row of the job: only rows of counted chunks, which the job's counts
 * hold and its settlement charges. A chunk's rows are written before it is counted, so a chunk in
 * flight when the job ends leaves rows that were never counted nor charged: those stay hidden.
 */
export function isReadable(job: Pick<MappingJob, 'status' | 'doneChunks'>, result: Pick<StoredResult, 'chunk'>): boolean {
  return job.status === 'COMPLETED' || (job.doneChunks?.has(result.chunk) ?? false);
}

export function emptyCounts(total: number): JobCounts {
  return { total, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 };
}

export function countResults(results: readonly Pick<StoredResult, 'status' | 'unchanged'>[]): Omit<JobCounts, 'total'> {
  const counts = { processed: results.length, matched: 0, review: 0, unmatched: 0, unchanged: 0 };
  for (const { status, unchanged } of results) {
    if (status === 'MATCHED') counts.matched++;
    else if (status === 'REVIEW') counts.review++;
    else counts.unmatched++;
    if (unchanged) counts.unchanged++;
  }
  return counts;
}

/** The mappings a job charges: its processed rows, less those answered from the book unchanged. */
export const chargedMappings = (counts: Pick<JobCounts, 'processed' | 'unchanged'>) => counts.processed - counts.unchanged;

/** Where a job's results files live in the results bucket. */
export const JOB_RESULTS_PREFIX = 'mapping-jobs/';

/**
 * How long a job's results stay readable, reviewable and exportable, from its creation: the
 * bucket's lifecycle rule removes its files and DynamoDB's TTL its decisions. A mapping a partner
 * keeps for longer belongs in its own systems (or an export).
 */
export const RESULTS_RETENTION_DAYS = 30;

/** When the job's results stop being readable. */
export function resultsExpireAt(job: Pick<MappingJob, 'createdAt'>): Date {
  return new Date(Date.parse(job.createdAt) + RESULTS_RETENTION_DAYS * 86_400_000);
}

/** Results past their retention are gone: a 410 that says when they went. */
export function refuseExpiredResults(job: Pick<MappingJob, 'createdAt'>, now: Date): void {
  const expiresAt = resultsExpireAt(job);
  if (now >= expiresAt) {
    throw gone(
      `The job's results were deleted at ${expiresAt.toISOString()}: results are kept ${RESULTS_RETENTION_DAYS} days from the job's creation.`,
    );
  }
}

/**
 * Where a job's files live in the results bucket (ResourceAccess.resultObjects): one results file per
 * chunk, the views a completed job is read through (result-views.ts), and exports (under
 * `exports/`, which the bucket's lifecycle rule empties after 7 days).
 */
export const jobObjects = {
  results: (job: Pick<MappingJob, 'organizationId' | 'id'>, chunk: number) =>
    `${JOB_RESULTS_PREFIX}${job.organizationId}/${job.id}/results/${String(chunk).padStart(5, '0')}.jsonl.gz`,
  /** A chunk's claims: its MATCHED rows' hotels, for the finishing stage (finishing.ts). */
  claims: (job: Pick<MappingJob, 'organizationId' | 'id'>, chunk: number) =>
    `${JOB_RESULTS_PREFIX}${job.organizationId}/${job.id}/claims/${String(chunk).padStart(5, '0')}.jsonl.gz`,
  /** What a claims part of the finishing stage changed. */
  claimChanges: (job: Pick<MappingJob, 'organizationId' | 'id'>, part: number) =>
    `${JOB_RESULTS_PREFIX}${job.organizationId}/${job.id}/claim-changes/${String(part).padStart(5, '0')}.jsonl.gz`,
  views: (job: Pick<MappingJob, 'organizationId' | 'id'>) => `${JOB_RESULTS_PREFIX}${job.organizationId}/${job.id}/views/`,
  export: (job: Pick<MappingJob, 'organizationId' | 'id'>, exportId: string, extension: string) =>
    `${EXPORTS_PREFIX}mapping-jobs/${job.organizationId}/${job.id}/${exportId}.${extension}`,
};

/** What a job's rows say is as of, for the mapping book: its inventory's upload. */
export const listedAtOf = (job: Pick<MappingJob, 'inventoryUploadedAt' | 'createdAt'>) => job.inventoryUploadedAt ?? job.createdAt;
