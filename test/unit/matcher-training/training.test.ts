import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledTrees } from '../../../shared/mapping/boosted-trees';
import { DECISION_FEATURES } from '../../../shared/mapping/match-decision';
import { mapHotels } from '../../../shared/mapping';
import { DEFAULT_BOOSTING, trainBoostedTrees } from '../../../infra/matcher-training/gradient-boosting';
import { loadLabelledSets } from '../../../infra/matcher-training/labelled-sets';
import { fitModel, leaveOneSetOut, REVIEW_FLOOR } from '../../../infra/matcher-training/leave-one-out';
import { trainingSetOf } from '../../../infra/matcher-training/training-rows';

const small = { ...DEFAULT_BOOSTING, trees: 30, depth: 3, learningRate: 0.3, minLeafWeight: 0.5 };

describe('boosted trees', () => {
  it('learn an interaction no single feature shows (exclusive or)', () => {
    const features: Float64Array[] = [];
    const labels: number[] = [];
    for (let k = 0; k < 400; k++) {
      const a = k % 2;
      const b = Math.floor(k / 2) % 2;
      features.push(Float64Array.of(a, b));
      labels.push(a ^ b);
    }
    const trees = new CompiledTrees(trainBoostedTrees({ features, labels: Uint8Array.from(labels) }, ['a', 'b'], small));
    assert.ok(trees.probability(Float64Array.of(0, 1)) > 0.9);
    assert.ok(trees.probability(Float64Array.of(1, 0)) > 0.9);
    assert.ok(trees.probability(Float64Array.of(0, 0)) < 0.1);
    assert.ok(trees.probability(Float64Array.of(1, 1)) < 0.1);
  });

  it('send a missing value where the data says: here, rows without the figure are mostly right', () => {
    const features: Float64Array[] = [];
    const labels: number[] = [];
    for (let k = 0; k < 300; k++) {
      const missing = k % 3 === 0;
      features.push(Float64Array.of(missing ? Number.NaN : k % 10));
      labels.push(missing ? 1 : k % 10 >= 5 ? 1 : 0);
    }
    const trees = new CompiledTrees(trainBoostedTrees({ features, labels: Uint8Array.from(labels) }, ['x'], small));
    assert.ok(trees.probability(Float64Array.of(Number.NaN)) > 0.9);
    assert.ok(trees.probability(Float64Array.of(1)) < 0.1);
    assert.ok(trees.probability(Float64Array.of(8)) > 0.9);
  });

  it('are the same for the same data and options, and keep six significant digits', () => {
    const features = Array.from({ length: 200 }, (_, k) => Float64Array.of(Math.sin(k), Math.cos(k * 7)));
    const labels = Uint8Array.from(features, (x) => (x[0]! + x[1]! > 0.3 ? 1 : 0));
    const first = JSON.stringify(trainBoostedTrees({ features, labels }, ['a', 'b'], small));
    assert.equal(JSON.stringify(trainBoostedTrees({ features, labels }, ['a', 'b'], small)), first);
    for (const tree of JSON.parse(first).trees)
      for (const value of tree.value) assert.ok(String(Math.abs(value)).replace(/^0\.0*|\.|e.*$/g, '').length <= 6, String(value));
  });
});

/** Two small labelled sets in the data folder's layout: a city of places, partner rows with a label each (or none). */
function writeLabelledSets(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'labelled-sets-'));
  const header = 'id,name,address,city,postalCode,country,lat,lon,rating';
  for (const [set, lat] of [
    ['north', 52.5],
    ['south', 41.4],
  ] as const) {
    const folder = path.join(directory, `poi-matching-${set}`);
    mkdirSync(folder);
    const reference: string[] = [header];
    const partner: string[] = [header];
    const truth: string[] = ['partnerId,referenceId'];
    const words = ['Amber', 'Birch', 'Cedar', 'Delta', 'Ember', 'Fable', 'Grove', 'Haven', 'Iris', 'Juniper', 'Kestrel', 'Lumen'];
    for (let k = 0; k < 60; k++) {
      const name = `${words[k % 12]} ${['Cafe', 'Books', 'Bakery', 'Studio', 'Market'][k % 5]} ${k}`;
      const placeLat = lat + (k % 10) * 0.002;
      const placeLon = 13.4 + Math.floor(k / 10) * 0.002;
      reference.push(`R-${set}-${k},${name},,City,,DE,${placeLat},${placeLon},`);
      // Two rows in three are the same place, 10 to 40 m off; the others are a place the reference lacks, next door.
      if (k % 3 === 2) partner.push(`P-${set}-${k},${words[(k + 5) % 12]} Corner ${k},,City,,DE,${placeLat + 0.0001},${placeLon},`);
      else {
        partner.push(
          `P-${set}-${k},${k % 4 === 0 ? name.toUpperCase() : name},,City,,DE,${placeLat + 0.0001 * (1 + (k % 4))},${placeLon},`,
        );
        truth.push(`P-${set}-${k},R-${set}-${k}`);
      }
    }
    writeFileSync(path.join(folder, 'reference.csv'), `${reference.join('\n')}\n`);
    writeFileSync(path.join(folder, 'partner.csv'), `${partner.join('\n')}\n`);
    writeFileSync(path.join(folder, 'truth.csv'), `${truth.join('\n')}\n`);
  }
  return directory;
}

describe('training the match model (npm run train:matcher, on a small subset)', () => {
  it('fits the same model twice, and the engine loads and applies it', async () => {
    const directory = writeLabelledSets();
    const labelled = await loadLabelledSets(['north', 'south'], directory);
    const sets = labelled.map((set) => trainingSetOf(set));
    const first = fitModel(sets, small);
    assert.equal(
      JSON.stringify(
        fitModel(
          labelled.map((set) => trainingSetOf(set)),
          small,
        ),
      ),
      JSON.stringify(first),
    );

    // A feature left out (to measure what it is worth) is missing from every row; a name that is no feature is refused.
    const withoutDistance = trainingSetOf(labelled[0]!, 'as given', undefined, ['distance']);
    const distance = DECISION_FEATURES.indexOf('distance');
    assert.ok(withoutDistance.rows.every((row) => row.vectors.every((vector) => Number.isNaN(vector[distance]!))));
    assert.ok(sets[0]!.rows.some((row) => row.vectors.some((vector) => !Number.isNaN(vector[distance]!))));
    assert.throws(() => trainingSetOf(labelled[0]!, 'as given', undefined, ['pinDistance']), /not a feature/);

    const loo = leaveOneSetOut(sets, small);
    assert.deepEqual(
      loo.sets.map((set) => set.name),
      ['north', 'south'],
    );
    assert.ok(loo.matchThreshold >= 0.05 && loo.matchThreshold <= 0.95);
    for (const fold of loo.sets) {
      assert.ok(fold.scores.f1 > 0.9, `${fold.name}: ${JSON.stringify(fold.scores)}`);
      assert.ok(fold.calibration.ece >= 0 && fold.calibration.ece < 0.2);
      assert.equal(fold.model.reviewThreshold, Math.min(REVIEW_FLOOR, loo.matchThreshold));
      // The engine, given the fold's model, decides as the replay did.
      const set = sets.find((candidate) => candidate.name === fold.name)!;
      const results = mapHotels(
        set.index,
        set.rows.map((row) => row.input),
        { mode: 'STANDARD' },
        fold.model,
      );
      const matched = results.filter((result) => result.status === 'MATCHED');
      assert.equal(matched.length, fold.scores.matched);
      assert.equal(
        matched.filter((result) => set.truth.get(result.partnerHotelId)?.has(result.referenceHotelId!)).length,
        fold.scores.correct,
      );
    }
  });
});
