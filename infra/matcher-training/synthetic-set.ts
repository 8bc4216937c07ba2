/**
 * A labelled set of hotel inventories from the synthetic generator (infra/synthetic): supplier-style
 * rows with names reworded and misspelt, pins drifting up to 300 m or missing, addresses and
 * postcodes missing, a tenth with no match. The real sets are places of interest with precise pins;
 * this one teaches the model what hotel feeds look like. Its seed is not bench:mapping's, so the
 * benchmark's rows are never trained on.
 */
import { mappingDataset } from '../synthetic/mapping-dataset';
import type { LabelledSet } from './labelled-sets';

export const SYNTHETIC_SET_NAME = 'synthetic hotels';
export const SYNTHETIC_TRAINING_SEED = 1;

export function syntheticLabelledSet(referenceCount: number, seed = SYNTHETIC_TRAINING_SEED): LabelledSet {
  const dataset = mappingDataset({ referenceCount, partnerCount: Math.round(referenceCount / 10), seed });
  // Reading the reference to the end fills the partner rows and their truth.
  const reference = [...dataset.reference()];
  const truth = new Map<string, Set<string>>();
  for (const [partnerId, hotels] of dataset.truth) truth.set(partnerId, new Set(hotels));
  return { name: SYNTHETIC_SET_NAME, reference, partners: dataset.partners, truth };
}
