/**
 * How far to trust a row's answer, in three levels a person or a pipeline can act on. A row's
 * answer is right with the probability the engine gives it: its score for a proposed hotel (MATCHED
 * or REVIEW), one less its best candidate's score for UNMATCHED (the scores are calibrated). The
 * cut-offs are chosen by `npm run train:matcher`, on each labelled set's answers from a model fitted
 * without it: HIGH where at least 99 % of its answers are right, MEDIUM where at least 75 % of its
 * own are (the precision each level has on every set is in the contributor's guide, "Mapping engine").
 */
import type { MappingResult } from './types';

export const CONFIDENCE_LEVELS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

/** The least probability of being right of each level above LOW. */
export const CONFIDENCE_CUTOFFS = { HIGH: 0.93, MEDIUM: 0.42 } as const;

/** What the study aims each level at: the share of the level's own answers that are right. */
export const CONFIDENCE_TARGETS = { HIGH: 0.99, MEDIUM: 0.75 } as const;

/** The probability the row's answer is right, as the engine gave it. */
export function rightProbability(row: Pick<MappingResult, 'status' | 'score'>): number {
  return row.status === 'UNMATCHED' ? 1 - row.score : row.score;
}

/** The row's level: a person's decision is HIGH; the engine's answer by its probability of being right. */
export function confidenceOf(
  row: Pick<MappingResult, 'status' | 'score'> & { method: MappingResult['method'] | 'MANUAL' },
  cutoffs: { HIGH: number; MEDIUM: number } = CONFIDENCE_CUTOFFS,
): Confidence {
  if (row.method === 'MANUAL') return 'HIGH';
  const right = rightProbability(row);
  return right >= cutoffs.HIGH ? 'HIGH' : right >= cutoffs.MEDIUM ? 'MEDIUM' : 'LOW';
}
