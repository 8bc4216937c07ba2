/**
 * Leave one set out: for each labelled set, a model fitted on the others predicts it. The MATCHED
 * threshold is the one that maximises the mean F1 of those predictions; the figures reported are
 * each left-out set's precision, recall, F1 and calibration at that threshold.
 */
import { CompiledTrees, type BoostedTrees } from '../../shared/mapping/boosted-trees';
import { hashText } from '../../shared/mapping/columns';
import { choose, DECISION_FEATURES, shareProbabilities, vetoOf, type MatchModel } from '../../shared/mapping/match-decision';
import { resolveClaimsAmong } from '../../shared/mapping/shared-claims';
import type { MappingResult } from '../../shared/mapping/types';
import { trainBoostedTrees, type BoostingOptions } from './gradient-boosting';
import type { TrainingRow, TrainingSet } from './training-rows';

/** REVIEW from this probability: below it, the proposed hotel is right less than one time in ten. */
export const REVIEW_FLOOR = 0.1;

export function fitModel(sets: readonly TrainingSet[], options: BoostingOptions): BoostedTrees {
  const features: Float64Array[] = [];
  const labels: number[] = [];
  for (const set of sets) {
    for (const row of set.rows) {
      row.vectors.forEach((vector, k) => {
        features.push(vector);
        labels.push(row.labels[k]!);
      });
    }
  }
  return trainBoostedTrees({ features, labels: Uint8Array.from(labels) }, DECISION_FEATURES, options);
}

export function withThresholds(trees: BoostedTrees, matchThreshold: number): MatchModel {
  return { ...trees, matchThreshold, reviewThreshold: Math.min(REVIEW_FLOOR, matchThreshold) };
}

/** Each row's assessed candidates' probabilities under a model. */
export function predict(set: TrainingSet, trees: BoostedTrees): number[][] {
  const compiled = new CompiledTrees(trees);
  return set.rows.map((row) =>
    shareProbabilities(
      row.vectors.map((vector) => compiled.probability(vector)),
      row.onePlace,
    ),
  );
}

export interface Scores {
  matched: number;
  correct: number;
  labelled: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * The engine's decision (choose) on precomputed probabilities, then the shared-claim rule; scored
 * against the labels.
 */
export function decideAndScore(set: TrainingSet, probabilities: readonly number[][], matchThreshold: number): Scores {
  const results = set.rows.map((row, r) => decisionOf(row, probabilities[r]!, matchThreshold));
  resolveClaimsAmong(
    set.index,
    results,
    set.rows.map((row) => row.input),
    matchThreshold,
  );
  let matched = 0;
  let correct = 0;
  let labelled = 0;
  for (const result of results) {
    const truth = set.truth.get(result.partnerHotelId);
    if (truth !== undefined && truth.size > 0) labelled += 1;
    if (result.status !== 'MATCHED') continue;
    matched += 1;
    if (truth?.has(result.referenceHotelId!)) correct += 1;
  }
  return scores(matched, correct, labelled);
}

function decisionOf(row: TrainingRow, probabilities: readonly number[], matchThreshold: number): MappingResult {
  const { best, matched } = choose(probabilities, row.vectors.map(vetoOf), row.onePlace, matchThreshold);
  const score = best < 0 ? 0 : Math.round(probabilities[best]! * 1000) / 1000;
  return {
    partnerHotelId: row.input.id,
    partnerHotelName: row.input.name,
    referenceHotelId: best < 0 ? null : row.referenceIds[best]!,
    referenceHotelName: null,
    status: matched ? 'MATCHED' : 'REVIEW',
    method: matched ? 'FUZZY' : null,
    score,
    evidence: null,
    candidates: [],
  };
}

export function scores(matched: number, correct: number, labelled: number): Scores {
  const precision = matched === 0 ? 0 : correct / matched;
  const recall = labelled === 0 ? 0 : correct / labelled;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { matched, correct, labelled, precision, recall, f1 };
}

export interface Calibration {
  /** Expected calibration error: the row-weighted mean gap between predicted and observed rates. */
  ece: number;
  /** Ten bins of the likeliest candidate's probability: rows, mean probability, share right. */
  bins: { rows: number; predicted: number; observed: number }[];
}

/** How well the likeliest candidate's probability matches how often it is right. */
export function calibrationOf(set: TrainingSet, probabilities: readonly number[][]): Calibration {
  const bins = Array.from({ length: 10 }, () => ({ rows: 0, predicted: 0, observed: 0 }));
  let total = 0;
  set.rows.forEach((row, r) => {
    const { best } = choose(probabilities[r]!, [], row.onePlace, 1);
    if (best < 0) return;
    const probability = probabilities[r]![best]!;
    const bin = bins[Math.min(9, Math.floor(probability * 10))]!;
    bin.rows += 1;
    bin.predicted += probability;
    bin.observed += row.labels[best]!;
    total += 1;
  });
  let ece = 0;
  for (const bin of bins) {
    if (bin.rows === 0) continue;
    bin.predicted /= bin.rows;
    bin.observed /= bin.rows;
    ece += (bin.rows / total) * Math.abs(bin.predicted - bin.observed);
  }
  return { ece, bins };
}

export interface LeftOutSet {
  name: string;
  variant: TrainingSet['variant'];
  scores: Scores;
  calibration: Calibration;
  /** The model fitted without this set (its thresholds the chosen ones). */
  model: MatchModel;
}

export interface LeaveOneOut {
  matchThreshold: number;
  sets: LeftOutSet[];
  meanF1: number;
  worstF1: number;
}

const THRESHOLDS = Array.from({ length: 91 }, (_, k) => Math.round((0.05 + k * 0.01) * 100) / 100);

/**
 * Each labelled set left out in turn (all its variants); the threshold is chosen on the real sets as
 * given, and every variant of each left-out set is reported, the synthetic hotels too.
 */
export function leaveOneSetOut(sets: readonly TrainingSet[], options: BoostingOptions): LeaveOneOut {
  const names = [...new Set(sets.map((set) => set.name))];
  const folds = names.flatMap((name) => {
    const trees = fitModel(
      sets.filter((other) => other.name !== name),
      options,
    );
    return sets.filter((set) => set.name === name).map((set) => ({ set, trees, probabilities: predict(set, trees) }));
  });
  const asGiven = folds.filter((fold) => fold.set.variant === 'as given');
  let matchThreshold = 0.5;
  let bestMean = -1;
  for (const threshold of THRESHOLDS) {
    const mean = asGiven.reduce((total, fold) => total + decideAndScore(fold.set, fold.probabilities, threshold).f1, 0) / asGiven.length;
    if (mean > bestMean) {
      bestMean = mean;
      matchThreshold = threshold;
    }
  }
  const leftOut = folds.map((fold) => ({
    name: fold.set.name,
    variant: fold.set.variant,
    scores: decideAndScore(fold.set, fold.probabilities, matchThreshold),
    calibration: calibrationOf(fold.set, fold.probabilities),
    model: withThresholds(fold.trees, matchThreshold),
  }));
  const f1s = leftOut.filter((fold) => fold.variant === 'as given').map((fold) => fold.scores.f1);
  return { matchThreshold, sets: leftOut, meanF1: f1s.reduce((a, b) => a + b, 0) / f1s.length, worstF1: Math.min(...f1s) };
}

/**
 * A ceiling for leave-one-set-out: each real set's rows in `folds` parts (by partner id), each part
 * predicted by a model fitted on the other parts and on every other set. What the features can do
 * when the model has seen the set's own city and source; the gap to leave-one-set-out is what
 * moving to an unseen one costs.
 */
export function withinSetFolds(
  sets: readonly TrainingSet[],
  options: BoostingOptions,
  folds = 5,
): { matchThreshold: number; sets: { name: string; scores: Scores }[]; meanF1: number; worstF1: number } {
  const foldOf = (row: TrainingRow) => (hashText(row.input.id) >>> 0) % folds;
  const evaluated = sets.filter((set) => set.variant === 'as given');
  const probabilities = new Map<TrainingSet, number[][]>(evaluated.map((set) => [set, set.rows.map(() => [])]));
  for (let fold = 0; fold < folds; fold++) {
    const training = sets.map((set) => ({
      ...set,
      rows: set.variant === 'as given' || set.variant === 'without pins' ? set.rows.filter((row) => foldOf(row) !== fold) : set.rows,
    }));
    const trees = fitModel(training, options);
    for (const set of evaluated) {
      const predicted = predict({ ...set, rows: set.rows.filter((row) => foldOf(row) === fold) }, trees);
      let next = 0;
      set.rows.forEach((row, r) => {
        if (foldOf(row) === fold) probabilities.get(set)![r] = predicted[next++]!;
      });
    }
  }
  let matchThreshold = 0.5;
  let bestMean = -1;
  for (const threshold of THRESHOLDS) {
    const mean = evaluated.reduce((total, set) => total + decideAndScore(set, probabilities.get(set)!, threshold).f1, 0) / evaluated.length;
    if (mean > bestMean) {
      bestMean = mean;
      matchThreshold = threshold;
    }
  }
  const results = evaluated.map((set) => ({ name: set.name, scores: decideAndScore(set, probabilities.get(set)!, matchThreshold) }));
  const f1s = results.map((result) => result.scores.f1);
  return { matchThreshold, sets: results, meanF1: bestMean, worstF1: Math.min(...f1s) };
}
