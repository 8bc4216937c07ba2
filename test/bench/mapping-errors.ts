/**
 * Error analysis on a labelled set: prints false MATCHED rows and missed labelled matches with
 * their evidence and runners-up, then counts them by kind. With --left-out, the set is mapped with
 * a model fitted on the other real sets as given, not the committed one (train:matcher also fits
 * on their pinless copies and the synthetic hotels, so its figures differ a little).
 *   npx tsx test/bench/mapping-errors.ts <set> [fp|fn|all] [limit] [--left-out]
 */
import { buildMatchingIndex, mapHotels } from '../../shared/mapping';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';
import { MATCH_MODEL, type MatchModel } from '../../shared/mapping/match-decision';
import { LABELLED_SET_NAMES, loadLabelledSet, loadLabelledSets } from '../../infra/matcher-training/labelled-sets';
import { fitModel, withThresholds } from '../../infra/matcher-training/leave-one-out';
import { trainingSetOf } from '../../infra/matcher-training/training-rows';
import { MATCHER_BOOSTING } from '../../infra/matcher-training/boosting-options';

const args = process.argv.slice(2).filter((arg) => arg !== '--left-out');
const setName = args[0] ?? 'singapore';
const { reference, partners, truth } = await loadLabelledSet(setName);
let model: MatchModel = MATCH_MODEL;
if (process.argv.includes('--left-out')) {
  const others = await loadLabelledSets(LABELLED_SET_NAMES.filter((name) => name !== setName));
  model = withThresholds(
    fitModel(
      others.map((set) => trainingSetOf(set)),
      MATCHER_BOOSTING,
    ),
    MATCH_MODEL.matchThreshold,
  );
}

const byId = new Map(reference.map((hotel) => [hotel.id, hotel]));
const partnerById = new Map(partners.map((hotel) => [hotel.id, hotel]));
const results = mapHotels(buildMatchingIndex(reference), partners, { mode: 'STANDARD' }, model);
const which = args[1] ?? 'all';
const limit = Number(args[2] ?? 60);
const show = (hotel: PartnerHotel | ReferenceHotel | undefined) =>
  hotel ? `${hotel.name} | ${hotel.address ?? ''} | ${hotel.postalCode ?? ''} | ${hotel.lat?.toFixed(5)},${hotel.lon?.toFixed(5)}` : '-';
let fp = 0;
let fn = 0;
const categories = new Map<string, number>();
for (const result of results) {
  const labels = truth.get(result.partnerHotelId);
  const correct = result.referenceHotelId !== null && labels?.has(result.referenceHotelId) === true;
  if (result.status === 'MATCHED' && !correct) {
    const category = labels ? 'FP-wrong-candidate' : 'FP-unlabelled';
    categories.set(category, (categories.get(category) ?? 0) + 1);
    if ((which === 'fp' || which === 'all') && fp++ < limit) {
      console.log(
        `FP ${category} score ${result.score} ${JSON.stringify(result.evidence)}\n  P: ${show(partnerById.get(result.partnerHotelId))}\n  R: ${show(byId.get(result.referenceHotelId!))}`,
      );
      if (labels) for (const label of labels) console.log(`  T: ${show(byId.get(label))}`);
    }
  } else if (labels && !(correct && result.status === 'MATCHED')) {
    const inCandidates = [result.referenceHotelId, ...result.candidates.map((c) => c.referenceHotelId)].some(
      (id) => id !== null && labels.has(id),
    );
    const category = `FN-${result.status}-${result.referenceHotelId && labels.has(result.referenceHotelId) ? 'right-candidate' : inCandidates ? 'in-runners-up' : 'not-found'}`;
    categories.set(category, (categories.get(category) ?? 0) + 1);
    if ((which === 'fn' || which === 'all') && fn++ < limit) {
      console.log(
        `FN ${category} score ${result.score} ${result.reason ?? ''} ${JSON.stringify(result.evidence)}\n  P: ${show(partnerById.get(result.partnerHotelId))}\n  R: ${show(result.referenceHotelId ? byId.get(result.referenceHotelId) : undefined)}`,
      );
      for (const label of labels) console.log(`  T: ${show(byId.get(label))}`);
      for (const candidate of result.candidates)
        console.log(
          `  C: ${candidate.score} ${candidate.nameSimilarity} ${candidate.distanceMeters} ${show(byId.get(candidate.referenceHotelId))}`,
        );
    }
  }
}
console.log(
  [...categories]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n'),
);
