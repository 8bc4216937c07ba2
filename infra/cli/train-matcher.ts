/**
 * Fits the match model on the labelled sets and writes it where the engine imports it.
 *
 *   npm run train:matcher [-- --data <folder>] [--sets a,b,...] [--synthetic N] [--out <file>] [--check] [--without f,g,...] [--within-sets]
 *
 * First each set is left out in turn: a model fitted on the others predicts it, the MATCHED
 * threshold that maximises the mean F1 of those predictions is chosen, and every left-out set's
 * precision, recall, F1 and calibration are printed, as the engine itself gives them (mapHotels
 * with that set's model), and the confidence levels' cut-offs are chosen on those answers
 * (confidence-study.ts: each set's figures at cut-offs chosen on the other sets alone). Then the
 * model is fitted on every set and written with that threshold.
 * The same data and options always write the same file. --check fits and prints without writing;
 * --without blanks features (what a feature is worth: the figures without it); --synthetic sets the
 * synthetic hotel set's size (0 leaves it out); --within-sets also prints the ceiling: each set in
 * five parts, each predicted by a model that has seen the rest of its own set.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mapHotels, reasonCodeOf, type MappingResult } from '../../shared/mapping';
import type { MatchModel } from '../../shared/mapping/match-decision';
import { MATCHER_BOOSTING } from '../matcher-training/boosting-options';
import { LABELLED_SET_NAMES, LABELLED_SETS_DIRECTORY, loadLabelledSets } from '../matcher-training/labelled-sets';
import { fitModel, leaveOneSetOut, scores, withinSetFolds, withThresholds, type LeftOutSet } from '../matcher-training/leave-one-out';
import { syntheticLabelledSet } from '../matcher-training/synthetic-set';
import { trainingSetOf } from '../matcher-training/training-rows';
import { answersOf, chooseCutoffs, precisionByLevel } from '../matcher-training/confidence-study';
import { CONFIDENCE_CUTOFFS, CONFIDENCE_LEVELS, CONFIDENCE_TARGETS } from '../../shared/mapping/confidence';

const MODEL_FILE = fileURLToPath(new URL('../../shared/mapping/match-model.json', import.meta.url));

/** Reference hotels of the synthetic hotel set trained on (its partner rows are a tenth of that). */
const SYNTHETIC_REFERENCE_HOTELS = 200_000;

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: LABELLED_SETS_DIRECTORY },
    sets: { type: 'string', default: LABELLED_SET_NAMES.join(',') },
    out: { type: 'string', default: MODEL_FILE },
    without: { type: 'string', default: '' },
    synthetic: { type: 'string', default: String(SYNTHETIC_REFERENCE_HOTELS) },
    check: { type: 'boolean', default: false },
    'within-sets': { type: 'boolean', default: false },
  },
});

const options = MATCHER_BOOSTING;
const without = values.without.split(',').filter(Boolean);
const started = performance.now();
const labelled = await loadLabelledSets(values.sets.split(','), values.data);
const synthetic = Number(values.synthetic) > 0 ? [syntheticLabelledSet(Number(values.synthetic))] : [];
const sets = [
  ...labelled.flatMap((set) => {
    const asGiven = trainingSetOf(set, 'as given', undefined, without);
    return [asGiven, trainingSetOf(set, 'without pins', asGiven.index, without)];
  }),
  ...synthetic.map((set) => trainingSetOf(set, 'synthetic', undefined, without)),
];
const prepared = performance.now();
console.log(
  `${labelled.length} labelled sets: ${labelled.map((set) => `${set.name} (${set.partners.length} rows)`).join(', ')}, each also without the partner's pins; ` +
    `${synthetic.map((set) => `${set.name} (${set.partners.length} rows); `).join('')}features in ${seconds(prepared - started)}`,
);

const loo = leaveOneSetOut(sets, options);
console.log(`\nLeft out in turn, at the MATCHED threshold ${loo.matchThreshold} (maximises the mean F1):`);
console.log('set                                precision  recall  F1      ECE');
for (const fold of loo.sets) console.log(describe(fold, engineScores(fold)));
console.log(`mean F1 ${loo.meanF1.toFixed(4)}, worst ${loo.worstF1.toFixed(4)}`);
for (const fold of loo.sets.filter((set) => set.variant === 'as given')) {
  console.log(
    `reliability, ${fold.name}: ${fold.calibration.bins
      .filter((bin) => bin.rows > 0)
      .map((bin) => `${bin.predicted.toFixed(2)}->${bin.observed.toFixed(2)} (${bin.rows})`)
      .join('  ')}`,
  );
}

// Confidence: each set's answers from the model fitted without it; each set's figures at cut-offs chosen on the other sets' answers.
const answered = loo.sets
  .filter((fold) => fold.variant === 'as given')
  .map((fold) => {
    const set = sets.find((candidate) => candidate.name === fold.name && candidate.variant === fold.variant)!;
    const results = mapHotels(
      set.index,
      set.rows.map((row) => row.input),
      { mode: 'STANDARD' },
      fold.model,
    );
    const missed = results.filter(
      (result) => reasonCodeOf(result) === 'NO_CANDIDATES' && (set.truth.get(result.partnerHotelId)?.size ?? 0) > 0,
    ).length;
    return { name: fold.name, answers: answersOf(results, set.truth), reasons: reasonCounts(results), missed };
  });
console.log(
  '\nReason codes of the REVIEW and UNMATCHED rows, each set mapped by the model fitted without it (and the NO_CANDIDATES rows the labels match all the same):',
);
for (const { name, reasons, missed } of answered)
  console.log(
    `${name.padEnd(34)} ${[...reasons].map(([code, rows]) => `${code} ${rows}`).join(', ')}; NO_CANDIDATES with a labelled match ${missed}`,
  );
console.log(`
Confidence levels, each set at cut-offs chosen on the others' answers (targets: HIGH ${CONFIDENCE_TARGETS.HIGH}, MEDIUM ${CONFIDENCE_TARGETS.MEDIUM}):`);
for (const { name, answers } of answered) {
  const cutoffs = chooseCutoffs(answered.filter((other) => other.name !== name).flatMap((other) => other.answers));
  console.log(
    `${name.padEnd(34)} HIGH >= ${cutoffs.HIGH}, MEDIUM >= ${cutoffs.MEDIUM}: ${levelFigures(precisionByLevel(answers, cutoffs))}`,
  );
}
const cutoffs = chooseCutoffs(answered.flatMap((set) => set.answers));
console.log(
  `chosen on every set: HIGH >= ${cutoffs.HIGH}, MEDIUM >= ${cutoffs.MEDIUM}${cutoffs.HIGH === CONFIDENCE_CUTOFFS.HIGH && cutoffs.MEDIUM === CONFIDENCE_CUTOFFS.MEDIUM ? ' (as the engine has them)' : ` (the engine has HIGH >= ${CONFIDENCE_CUTOFFS.HIGH}, MEDIUM >= ${CONFIDENCE_CUTOFFS.MEDIUM}: set these in shared/mapping/confidence.ts)`}`,
);
for (const { name, answers } of answered)
  console.log(`${name.padEnd(34)} ${levelFigures(precisionByLevel(answers, CONFIDENCE_CUTOFFS))} (at the engine's cut-offs)`);

if (values['within-sets']) {
  const within = withinSetFolds(sets, options);
  console.log(
    `\nWithin each set (five parts, each predicted by a model fitted on the rest and on the other sets), at ${within.matchThreshold}:`,
  );
  for (const { name, scores: figures } of within.sets)
    console.log(`${name.padEnd(34)} ${figures.precision.toFixed(3)}      ${figures.recall.toFixed(3)}   ${figures.f1.toFixed(4)}`);
  console.log(`mean F1 ${within.meanF1.toFixed(4)}, worst ${within.worstF1.toFixed(4)}`);
}

const model: MatchModel = {
  ...withThresholds(fitModel(sets, options), loo.matchThreshold),
  training: { sets: sets.map((set) => `${set.name} (${set.variant})`), ...options },
};
const text = `${JSON.stringify(model)}\n`;
if (values.check) console.log(`\n--check: the model fitted on every set (${(text.length / 1024).toFixed(0)} KiB) is not written`);
else {
  writeFileSync(values.out, text);
  console.log(
    `\nwrote ${path.relative(process.cwd(), values.out)} (${(text.length / 1024).toFixed(0)} KiB): ${options.trees} trees of depth ${options.depth}, MATCHED from ${model.matchThreshold}, REVIEW from ${model.reviewThreshold}`,
  );
}
console.log(`done in ${seconds(performance.now() - started)}`);

/** The left-out set mapped by the engine itself with the model fitted without it. */
function engineScores(fold: LeftOutSet) {
  const set = sets.find((candidate) => candidate.name === fold.name && candidate.variant === fold.variant)!;
  const results = mapHotels(
    set.index,
    set.rows.map((row) => row.input),
    { mode: 'STANDARD' },
    fold.model,
  );
  let matched = 0;
  let correct = 0;
  for (const result of results) {
    if (result.status !== 'MATCHED') continue;
    matched += 1;
    if (set.truth.get(result.partnerHotelId)?.has(result.referenceHotelId!)) correct += 1;
  }
  return scores(matched, correct, set.rows.filter((row) => row.labelled).length);
}

function describe(fold: LeftOutSet, engine: ReturnType<typeof scores>): string {
  const { precision, recall, f1 } = fold.scores;
  // The decision replayed on the training figures and the engine's own results must agree.
  const agrees = engine.matched === fold.scores.matched && engine.correct === fold.scores.correct;
  const mismatch = agrees
    ? ''
    : `  (the engine gives P ${engine.precision.toFixed(3)} R ${engine.recall.toFixed(3)} F1 ${engine.f1.toFixed(4)}: it decides otherwise than the replay)`;
  return `${`${fold.name}${fold.variant === 'as given' ? '' : `, ${fold.variant}`}`.padEnd(34)} ${precision.toFixed(3)}      ${recall.toFixed(3)}   ${f1.toFixed(4)}  ${fold.calibration.ece.toFixed(4)}${mismatch}`;
}

function reasonCounts(results: readonly MappingResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const result of results) {
    const code = reasonCodeOf(result);
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return new Map([...counts].sort(([, a], [, b]) => b - a));
}

function levelFigures(levels: ReturnType<typeof precisionByLevel>): string {
  return CONFIDENCE_LEVELS.map(
    (level) => `${level} ${levels[level].rows} rows, ${(levels[level].precision * 100).toFixed(1)} % right`,
  ).join('; ');
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
