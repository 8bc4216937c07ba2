/**
 * The assessed candidates of named partner rows of a labelled set, with their evidence log-odds,
 * the model's probability and the features it read (debugging aid).
 *   npx tsx test/bench/mapping-debug.ts <set> "Partner name" ["Another name" ...]
 *   (set: singapore, toronto-foursquare, toronto-yelp, pittsburgh-yelp)
 */
import { buildMatchingIndex, HotelMatcher } from '../../shared/mapping';
import { textAt } from '../../shared/mapping/columns';
import { ASSESSED_CANDIDATES, DECISION_FEATURES } from '../../shared/mapping/match-decision';
import { preparePartner } from '../../shared/mapping/partner-row';
import { loadLabelledSet } from '../../infra/matcher-training/labelled-sets';

const [setName, ...names] = process.argv.slice(2);
const set = await loadLabelledSet(setName ?? 'singapore');
const index = buildMatchingIndex(set.reference);
const matcher = new HotelMatcher(index, { mode: 'STANDARD', maxCandidates: 10 });
const buffers = Array.from({ length: ASSESSED_CANDIDATES }, () => new Float64Array(DECISION_FEATURES.length));
for (const name of names) {
  for (const hotel of set.partners.filter((candidate) => candidate.name === name)) {
    const result = matcher.match(hotel);
    console.log(
      hotel.name,
      hotel.lat,
      hotel.lon,
      result.status,
      result.score,
      result.reason ?? '',
      'labelled:',
      [...(set.truth.get(hotel.id) ?? [])].join(' '),
    );
    const { partner, ranked, outlets } = matcher.candidates(preparePartner(index, hotel));
    const { probabilities } = matcher.decision.assess(partner, ranked, outlets);
    const vectors = matcher.decision.featureVectors(partner, ranked, outlets, buffers);
    ranked.forEach((candidate, k) => {
      const id = textAt(index.data.ids, candidate.hotel);
      console.log(
        `  ${candidate.logOdds.toFixed(2)} p=${probabilities[k]?.toFixed(3) ?? '-'} ${textAt(index.data.names, candidate.hotel)} (${id}) ${JSON.stringify(candidate.evidence)}`,
      );
      if (vectors[k])
        console.log(`    ${DECISION_FEATURES.map((feature, f) => `${feature}=${Number(vectors[k]![f]!.toFixed(3))}`).join(' ')}`);
    });
  }
}
