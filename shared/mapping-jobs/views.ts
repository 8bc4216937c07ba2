import { confidenceOf, reasonCodeOf, referenceFactsShown } from '../mapping';
import type { DomainError } from '../platform/errors';
import { describeFailure } from '../platform/http/errors';
import { resultsExpireAt, type MappingJob, type StoredResult } from './job';

export function jobView(job: MappingJob) {
  return {
    mappingJobId: job.id,
    name: job.name ?? null,
    partnerInventoryId: job.partnerInventoryId,
    status: job.status,
    mode: job.mode,
    partial: job.partial === true,
    supplierCode: job.supplier?.code,
    referenceVersionId: job.reference.artifactsId,
    counts: job.counts,
    progress: job.counts.total === 0 ? 1 : Math.round((job.counts.processed / job.counts.total) * 10_000) / 10_000,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    failedAt: job.failedAt,
    cancelledAt: job.cancelledAt,
    updatedAt: job.updatedAt,
    error: job.error,
    ...(job.status === 'COMPLETED' && job.scores && { scores: job.scores }),
    expiresAt: resultsExpireAt(job).toISOString(),
  };
}

/** A result as the organization reads it: `connected`, the suppliers whose codes it is shown. */
export function resultView(result: Omit<StoredResult, 'chunk'>, connected: readonly string[]) {
  return {
    partnerHotelId: result.partnerHotelId,
    partnerHotelName: result.partnerHotelName,
    ...(result.partner && { partnerHotel: result.partner }),
    referenceHotelId: result.referenceHotelId,
    referenceHotelName: result.referenceHotelName,
    ...referenceFactsShown(result, connected),
    status: result.status,
    method: result.method,
    score: result.score,
    confidence: confidenceOf(result),
    evidence: result.evidence,
    candidates: result.candidates,
    reason: result.reason,
    reasonCode: reasonCodeOf(result),
    review: result.review,
  };
}

/**
 * A row a batch decided, as it now is in brief: its answer and the decision standing on it (none
 * after a WITHDRAW). Not the whole row: 500 rows with their candidates and evidence would outgrow
 * the answer a repeated Idempotency-Key is answered with (a table item: 400 KB at most).
 */
export function decidedRowView(result: Omit<StoredResult, 'chunk'>) {
  return {
    partnerHotelId: result.partnerHotelId,
    status: result.status,
    method: result.method,
    score: result.score,
    referenceHotelId: result.referenceHotelId,
    referenceHotelName: result.referenceHotelName,
    ...(result.review && { review: { decision: result.review.decision, decidedAt: result.review.decidedAt } }),
  };
}

/** A row a batch refused: what a single review of it would have answered. */
export function refusedRowView({ partnerHotelId, error }: { partnerHotelId: string; error: DomainError }) {
  const { status, body } = describeFailure(error)!;
  return { partnerHotelId, status, ...body };
}
