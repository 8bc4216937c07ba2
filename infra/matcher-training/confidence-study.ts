/**
 * The confidence levels' cut-offs, chosen on answers from models that never saw their rows: each
 * labelled set's answers come from the model fitted without it (leave one set out), and each set's
 * own figures are measured with cut-offs chosen on the other sets' answers alone.
 */
import { CONFIDENCE_LEVELS, CONFIDENCE_TARGETS, confidenceOf, rightProbability, type Confidence } from '../../shared/mapping/confidence';
import type { MappingResult } from '../../shared/mapping/types';

/** An answer of a left-out set: how likely the engine said it is right, and whether it is. */
export interface ScoredAnswer {
  probability: number;
  right: boolean;
}

/** Whether a row's answer agrees with the labels: its proposed hotel is a labelled match, or it is unmatched and has none. */
export function answersOf(results: readonly MappingResult[], truth: ReadonlyMap<string, ReadonlySet<string>>): ScoredAnswer[] {
  return results.map((result) => {
    const labelled = truth.get(result.partnerHotelId);
    const right =
      result.status === 'UNMATCHED'
        ? !labelled || labelled.size === 0
        : result.referenceHotelId !== null && labelled?.has(result.referenceHotelId) === true;
    return { probability: rightProbability(result), right };
  });
}

/**
 * The cut-offs, on a grid of hundredths: HIGH the least at which the answers at or above it are right
 * at least as often as its target; MEDIUM the least at which the answers from it up to HIGH are right
 * at least as often as its own (each level's precision is its own rows', not the ones above it).
 * Each is the widest such band, wherever it ends.
 */
export function chooseCutoffs(answers: readonly ScoredAnswer[]): { HIGH: number; MEDIUM: number } {
  const least = (ceiling: number, target: number) => {
    let best = ceiling;
    for (let cut = Math.round(ceiling * 100) - 1; cut >= 0; cut--) {
      const band = answers.filter((answer) => answer.probability >= cut / 100 && answer.probability < ceiling);
      if (band.length === 0) continue;
      // The widest band that meets the target, not the first that misses it: a hundredth of a few rows can miss by chance.
      if (band.filter((answer) => answer.right).length / band.length >= target) best = cut / 100;
    }
    return best;
  };
  const high = least(1 + 1e-9, CONFIDENCE_TARGETS.HIGH);
  return { HIGH: Math.min(1, high), MEDIUM: least(high, CONFIDENCE_TARGETS.MEDIUM) };
}

/** Per level, how many answers it holds and the share of them that is right. */
export function precisionByLevel(
  answers: readonly ScoredAnswer[],
  cutoffs: { HIGH: number; MEDIUM: number },
): Record<Confidence, { rows: number; precision: number }> {
  const levels = Object.fromEntries(CONFIDENCE_LEVELS.map((level) => [level, { rows: 0, right: 0 }])) as Record<
    Confidence,
    { rows: number; right: number }
  >;
  for (const answer of answers) {
    const level = levels[confidenceOf({ status: 'MATCHED', method: 'FUZZY', score: answer.probability }, cutoffs)];
    level.rows += 1;
    if (answer.right) level.right += 1;
  }
  return Object.fromEntries(
    CONFIDENCE_LEVELS.map((level) => [
      level,
      { rows: levels[level].rows, precision: levels[level].rows === 0 ? 1 : levels[level].right / levels[level].rows },
    ]),
  ) as Record<Confidence, { rows: number; precision: number }>;
}
