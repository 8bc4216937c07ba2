/**
 * `npm run bench:review-yield`: what a team's review is worth on the four labelled real sets
 * (../shared/data), each mapped by the model fitted without it (as `npm run train:matcher` leaves
 * each out): F1 by the labels before review, after the REVIEW rows, and after the console's riskiest
 * queue, worked in its order (matches lowest score first, unmatched rows best candidate first) down
 * to where a row is wrong less than once in twenty (RISK_FLOOR), with the rows reviewed as a share
 * of the job. The reviewer is the labels: a row reviewed ends as they say (the labelled hotel, found
 * among the candidates or by search, or no match).
 *   npm run bench:review-yield
 */
import { mapHotels, type MappingResult } from '../../shared/mapping';
import { MATCHER_BOOSTING } from '../../infra/matcher-training/boosting-options';
import { loadLabelledSets } from '../../infra/matcher-training/labelled-sets';
import { leaveOneSetOut } from '../../infra/matcher-training/leave-one-out';
import { syntheticLabelledSet } from '../../infra/matcher-training/synthetic-set';
import { trainingSetOf } from '../../infra/matcher-training/training-rows';
import { scoreMatches } from './mapping-metrics';

/** Where the console's riskiest queue ends (shared/console/page/review.js). */
const RISK_FLOOR = 0.05;
// As `npm run train:matcher` builds them, so each left-out model is the one it reports.
const SYNTHETIC_REFERENCE_HOTELS = 200_000;

const labelled = await loadLabelledSets();
const sets = [
  ...labelled.flatMap((set) => {
    const asGiven = trainingSetOf(set, 'as given');
    return [asGiven, trainingSetOf(set, 'without pins', asGiven.index)];
  }),
  trainingSetOf(syntheticLabelledSet(SYNTHETIC_REFERENCE_HOTELS), 'synthetic'),
];
const loo = leaveOneSetOut(sets, MATCHER_BOOSTING);

/** The probability the row's automatic answer is wrong, as the console orders its riskiest queue. */
const riskOf = (row: MappingResult) => (row.status === 'UNMATCHED' ? row.score : 1 - row.score);

console.log(`Each set mapped by the model fitted without it (MATCHED from ${loo.matchThreshold}); the labels decide each row reviewed.`);
console.log('set                  rows    F1 before  after REVIEW (rows)   after riskiest (rows, errors found / expected)   reviewed');
for (const fold of loo.sets.filter((set) => set.variant === 'as given')) {
  const set = sets.find((candidate) => candidate.name === fold.name && candidate.variant === 'as given')!;
  const results = mapHotels(
    set.index,
    set.rows.map((row) => row.input),
    { mode: 'STANDARD' },
    fold.model,
  );
  const truthOf = (id: string) => set.truth.get(id);
  const decided = (row: MappingResult): MappingResult => {
    const truth = truthOf(row.partnerHotelId);
    const hotel = truth && truth.size > 0 ? (truth.has(row.referenceHotelId ?? '') ? row.referenceHotelId! : [...truth][0]!) : null;
    return { ...row, status: hotel ? 'MATCHED' : 'UNMATCHED', referenceHotelId: hotel };
  };
  const isWrong = (row: MappingResult) => decided(row).referenceHotelId !== (row.status === 'MATCHED' ? row.referenceHotelId : null);

  const before = scoreMatches(results, truthOf).f1;
  const afterReview = results.map((row) => (row.status === 'REVIEW' ? decided(row) : row));
  const reviewRows = results.filter((row) => row.status === 'REVIEW').length;
  const reviewF1 = scoreMatches(afterReview, truthOf).f1;

  const queue = results
    .filter((row) => (row.status === 'MATCHED' && row.method === 'FUZZY') || row.status === 'UNMATCHED')
    .filter((row) => riskOf(row) >= RISK_FLOOR)
    .sort((a, b) => riskOf(b) - riskOf(a));
  const worked = new Set(queue.map((row) => row.partnerHotelId));
  const afterRiskiest = afterReview.map((row) => (worked.has(row.partnerHotelId) ? decided(row) : row));
  const riskiestF1 = scoreMatches(afterRiskiest, truthOf).f1;
  const found = queue.filter(isWrong).length;
  const expected = queue.reduce((sum, row) => sum + riskOf(row), 0);
  const share = (reviewRows + queue.length) / results.length;
  console.log(
    `${fold.name.padEnd(20)} ${String(results.length).padStart(5)}   ${before.toFixed(4)}     ${reviewF1.toFixed(4)} (${String(reviewRows).padStart(4)})        ` +
      `${riskiestF1.toFixed(4)} (${String(queue.length).padStart(4)}, ${found} / ${expected.toFixed(1)})                         ${(share * 100).toFixed(1)} %`,
  );
}
