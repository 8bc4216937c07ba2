/**
 * The committed match model on the four labelled real sets (../shared/data): STANDARD mode,
 * precision / recall / F1 of MATCHED rows as the data's README defines them. The model was fitted
 * on these sets, so these figures are not what it does on an unseen city: `npm run train:matcher`
 * prints those (each set left out in turn).
 *   npm run bench:accuracy
 */
import { buildMatchingIndex, mapHotels } from '../../shared/mapping';
import { loadLabelledSets } from '../../infra/matcher-training/labelled-sets';
import { scoreMatches } from './mapping-metrics';

const f1s: number[] = [];
for (const set of await loadLabelledSets()) {
  const started = performance.now();
  const index = buildMatchingIndex(set.reference);
  const built = performance.now();
  const results = mapHotels(index, set.partners, { mode: 'STANDARD' });
  const finished = performance.now();
  const metrics = scoreMatches(results, (partnerId) => set.truth.get(partnerId));
  f1s.push(metrics.f1);
  console.log(
    `${set.name}: ${set.reference.length} reference, ${set.partners.length} partner rows, ${metrics.labelled} with a labelled match`,
  );
  console.log(
    `  index build ${(built - started).toFixed(0)} ms, mapping ${(finished - built).toFixed(0)} ms (${Math.round(set.partners.length / ((finished - built) / 1000))} rows/s)`,
  );
  console.log(
    `  MATCHED ${metrics.matched} (correct ${metrics.correct}), REVIEW ${metrics.review} (correct candidate ${metrics.reviewCorrect}), UNMATCHED ${metrics.unmatched}`,
  );
  console.log(`  precision ${metrics.precision.toFixed(3)}  recall ${metrics.recall.toFixed(3)}  F1 ${metrics.f1.toFixed(4)}`);
}
console.log(
  `mean F1 ${(f1s.reduce((a, b) => a + b, 0) / f1s.length).toFixed(4)}, worst ${Math.min(...f1s).toFixed(4)} (in-sample: the model was fitted on these sets)`,
);
