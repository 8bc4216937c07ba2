/**
 * How often a chain outlet near a row is its labelled match on the real sets, by how the outlet's
 * name relates to the row's (exactly the row's, or the row's with words added) and how far it is:
 * what the dense-chain scenario's premise is checked against.
 *   npx tsx test/bench/chain-outlet-labels.ts
 */
import { loadLabelledSets } from '../../infra/matcher-training/labelled-sets';
import { trainingSetOf } from '../../infra/matcher-training/training-rows';
import { DECISION_FEATURES } from '../../shared/mapping/match-decision';

const at = (name: (typeof DECISION_FEATURES)[number]) => DECISION_FEATURES.indexOf(name);
for (const set of await loadLabelledSets()) {
  const counts = new Map<string, { outlets: number; labelled: number }>();
  for (const row of trainingSetOf(set).rows) {
    row.vectors.forEach((x, k) => {
      if (x[at('chainOutlet')] !== 1) return;
      const name = x[at('exactName')] === 1 ? 'exact name' : x[at('partnerNameContained')] === 1 ? "row's name and more" : 'other';
      const meters = 10 ** x[at('distance')]! - 1;
      const band = meters < 50 ? 'under 50 m' : meters < 100 ? '50-100 m' : meters < 200 ? '100-200 m' : '200 m or more';
      const key = `${name}, ${band}, ${x[at('distanceRank')] === 0 ? 'nearest' : 'not nearest'}`;
      const count = counts.get(key) ?? { outlets: 0, labelled: 0 };
      count.outlets += 1;
      count.labelled += row.labels[k]!;
      counts.set(key, count);
    });
  }
  console.log(set.name);
  for (const [key, { outlets, labelled }] of [...counts].sort()) console.log(`  ${key}: labelled ${labelled} of ${outlets}`);
}
