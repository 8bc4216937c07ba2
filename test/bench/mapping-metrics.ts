/** Precision, recall and F1 of MATCHED rows against labelled pairs, shared by both benchmarks. */
import type { MappingResult } from '../../shared/mapping';

export interface MatchMetrics {
  matched: number;
  correct: number;
  review: number;
  /** REVIEW rows whose proposed hotel is a labelled match. */
  reviewCorrect: number;
  unmatched: number;
  /** Partner rows that have a labelled match. */
  labelled: number;
  /** Labelled rows that ended REVIEW (whatever hotel they propose): the right hotel not trusted, mostly. */
  labelledReview: number;
  /** labelledReview / labelled. */
  labelledReviewShare: number;
  precision: number;
  recall: number;
  f1: number;
}

export function scoreMatches(
  results: Iterable<MappingResult>,
  truthOf: (partnerId: string) => ReadonlySet<string> | undefined,
): MatchMetrics {
  const metrics = { matched: 0, correct: 0, review: 0, reviewCorrect: 0, unmatched: 0, labelled: 0, labelledReview: 0 };
  for (const result of results) {
    const truth = truthOf(result.partnerHotelId);
    const labelled = truth !== undefined && truth.size > 0;
    if (labelled) metrics.labelled += 1;
    const isCorrect = result.referenceHotelId !== null && truth?.has(result.referenceHotelId) === true;
    if (result.status === 'MATCHED') {
      metrics.matched += 1;
      if (isCorrect) metrics.correct += 1;
    } else if (result.status === 'REVIEW') {
      metrics.review += 1;
      if (isCorrect) metrics.reviewCorrect += 1;
      if (labelled) metrics.labelledReview += 1;
    } else metrics.unmatched += 1;
  }
  const precision = metrics.matched === 0 ? 0 : metrics.correct / metrics.matched;
  const recall = metrics.labelled === 0 ? 0 : metrics.correct / metrics.labelled;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const labelledReviewShare = metrics.labelled === 0 ? 0 : metrics.labelledReview / metrics.labelled;
  return { ...metrics, labelledReviewShare, precision, recall, f1 };
}
