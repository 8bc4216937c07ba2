import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { buildMatchingIndex, HotelMatcher, MATCH_MODEL, type PartnerHotel, type ReferenceHotel } from '../../../shared/mapping';
import { textAt } from '../../../shared/mapping/columns';
import {
  ASSESSED_CANDIDATES,
  DECISION_FEATURES,
  MatchDecision,
  shareProbabilities,
  vetoOf,
  type DecisionFeature,
} from '../../../shared/mapping/match-decision';
import { preparePartner } from '../../../shared/mapping/partner-row';

/** Metres north and east of (48.85, 2.35) in degrees. */
const M = 1 / 111_195;
const at = (north: number, east: number) => ({ lat: 48.85 + north * M, lon: 2.35 + (east * M) / Math.cos((48.85 * Math.PI) / 180) });

function reference(): ReferenceHotel[] {
  const hotels: ReferenceHotel[] = [
    {
      id: 'lutetia',
      name: 'Hotel Lutetia',
      address: '45 Boulevard Raspail',
      postalCode: '75006',
      city: 'Paris',
      country: 'FR',
      ...at(0, 0),
      rating: 5,
      supplierCodes: {},
    },
    { id: 'rex', name: 'Rex Montparnasse', postalCode: '75014', city: 'Paris', country: 'FR', ...at(2000, 0), supplierCodes: {} },
    {
      id: 'rex-spa',
      name: 'Spa Nuxe @ Rex Montparnasse',
      postalCode: '75014',
      city: 'Paris',
      country: 'FR',
      ...at(2010, 0),
      supplierCodes: {},
    },
    { id: 'marina', name: 'MarinaBay Sands Club', country: 'FR', ...at(4000, 0), supplierCodes: {} },
    { id: 'kopi-a', name: 'Kopitiam Express', country: 'FR', ...at(6000, 0), supplierCodes: {} },
    { id: 'kopi-b', name: 'Kopitiam Express', country: 'FR', ...at(6150, 0), supplierCodes: {} },
    { id: 'cashew', name: 'Cashew Heights', country: 'FR', ...at(8000, 0), supplierCodes: {} },
    { id: 'cashew-gym', name: 'Cashew Heights Gym', country: 'FR', ...at(8020, 0), supplierCodes: {} },
  ];
  // Fillers: common words ("Hotel", "Paris") are common here too, and a crowded block near Lutetia.
  for (let i = 0; i < 40; i++)
    hotels.push({
      id: `filler-${i}`,
      name: `Hotel Paris ${['Royal', 'Garden', 'Central', 'Plaza'][i % 4]} ${i}`,
      postalCode: '75006',
      city: 'Paris',
      country: 'FR',
      ...at(30 + (i % 8) * 25, 30 + Math.floor(i / 8) * 40),
      supplierCodes: {},
    });
  return hotels;
}

const index = buildMatchingIndex(reference());
const matcher = new HotelMatcher(index, { mode: 'STANDARD' });

/** The assessed candidates' features by reference id. */
function features(row: PartnerHotel, by: HotelMatcher = matcher): Map<string, Record<DecisionFeature, number>> {
  const { partner, ranked, outlets } = by.candidates(preparePartner(by.index, row));
  const buffers = Array.from({ length: ASSESSED_CANDIDATES }, () => new Float64Array(DECISION_FEATURES.length));
  const vectors = by.decision.featureVectors(partner, ranked, outlets, buffers);
  return new Map(
    vectors.map((vector, k) => [
      textAt(by.index.data.ids, ranked[k]!.hotel),
      Object.fromEntries(DECISION_FEATURES.map((name, f) => [name, vector[f]!])) as Record<DecisionFeature, number>,
    ]),
  );
}

function featuresOf(row: PartnerHotel, referenceId: string): Record<DecisionFeature, number> {
  const found = features(row).get(referenceId);
  assert.ok(found, `${referenceId} is not among the assessed candidates of ${row.name}`);
  return found;
}

describe('the match model', () => {
  it('is the committed one, reading the features the engine writes, with thresholds in order', () => {
    // Spread: arrays of an imported JSON module come from another realm than the test's.
    assert.deepEqual([...MATCH_MODEL.features], [...DECISION_FEATURES]);
    assert.ok(MATCH_MODEL.trees.length > 0);
    assert.ok(
      MATCH_MODEL.reviewThreshold > 0 && MATCH_MODEL.reviewThreshold < MATCH_MODEL.matchThreshold && MATCH_MODEL.matchThreshold < 1,
    );
    assert.equal(matcher.thresholds.match, MATCH_MODEL.matchThreshold);
  });

  it('refuses a model that reads other features than the engine writes', () => {
    assert.throws(() => new MatchDecision(index, { ...MATCH_MODEL, features: ['nameSimilarity'] }), /train it again/);
  });

  it('gives a probability between 0 and 1 to each candidate, the runners-up too', () => {
    const result = matcher.match({ id: 'p', name: 'Kopitiam Express', country: 'FR', ...at(6070, 0) });
    for (const score of [result.score, ...result.candidates.map((candidate) => candidate.score)])
      assert.ok(score >= 0 && score <= 1, String(score));
  });
});

describe('decision features: the names', () => {
  it('an exact name: contained both ways, every word shared, its rarest word carried by one place', () => {
    const x = featuresOf({ id: 'p', name: 'Hotel Lutetia', country: 'FR', ...at(10, 0) }, 'lutetia');
    assert.equal(x.exactName, 1);
    assert.ok(Math.abs(x.nameSimilarity - 1) < 1e-6);
    assert.equal(x.partnerNameContained, 1);
    assert.equal(x.referenceNameContained, 1);
    assert.equal(x.sharedWords, 2);
    assert.equal(x.rarestSharedWordFrequency, 0);
    assert.ok(Number.isNaN(x.rarestReferenceExtraWordFrequency) && Number.isNaN(x.rarestPartnerExtraWordFrequency));
    assert.equal(x.firstWordEqual, 1);
    assert.equal(x.nameEditSimilarity, 1);
    assert.equal(x.nameTrigramSimilarity, 1);
    assert.equal(x.partnerWords, 2);
    assert.equal(x.referenceWords, 2);
    assert.equal(x.nameWordOverlap, 1);
  });

  it('a shared common word is weak: its frequency is how many reference names carry it', () => {
    const x = featuresOf({ id: 'p', name: 'Hotel Paris Royal 0', country: 'FR', ...at(30, 30) }, 'filler-0');
    assert.equal(x.exactName, 1);
    // "hotel" and "paris" are on all 41 hotels' names: the rarest shared word is "0".
    assert.equal(x.rarestSharedWordFrequency, 0);
    const partial = featuresOf({ id: 'p', name: 'Paris Lutetia', country: 'FR', ...at(10, 0) }, 'lutetia');
    assert.equal(partial.sharedWords, 1);
    assert.equal(partial.rarestSharedWordFrequency, 0);
    // The row adds "paris" (40 names carry it), the reference "hotel" (41).
    assert.equal(partial.rarestPartnerExtraWordFrequency, Math.log2(40));
    assert.equal(partial.rarestReferenceExtraWordFrequency, Math.log2(41));
    assert.deepEqual([partial.partnerNameContained, partial.referenceNameContained, partial.exactName], [0, 0, 0]);
    // One word shared of three different ones.
    assert.equal(partial.nameWordOverlap, 1 / 3);
  });

  it('words run together compare as written apart ("Marina Bay Sands" and "MarinaBay Sands")', () => {
    const x = featuresOf({ id: 'p', name: 'Marina Bay Sands Club', country: 'FR', ...at(4010, 0) }, 'marina');
    assert.equal(x.nameEditSimilarity, 1);
    assert.ok(x.nameTrigramSimilarity > 0.6, String(x.nameTrigramSimilarity));
  });

  it("a place inside another: the row's name contained in the reference's, which adds words of its own", () => {
    // Without the place itself, its spa is the best the reference has.
    const withoutRex = new HotelMatcher(buildMatchingIndex(reference().filter((hotel) => hotel.id !== 'rex')), { mode: 'STANDARD' });
    const x = features({ id: 'p', name: 'Rex Montparnasse', country: 'FR', ...at(2005, 0) }, withoutRex).get('rex-spa')!;
    assert.equal(x.partnerNameContained, 1);
    assert.equal(x.referenceNameContained, 0);
    assert.equal(x.subPlace, 1);
    assert.equal(x.rarestReferenceExtraWordFrequency, 0);
    const own = featuresOf({ id: 'p', name: 'Rex Montparnasse', country: 'FR', ...at(2005, 0) }, 'rex');
    assert.equal(own.exactName, 1);
  });

  it("a part's word after the row's name: another kind of place, and a part of the row's (never MATCHED)", () => {
    const x = featuresOf({ id: 'p', name: 'Cashew Heights', country: 'FR', ...at(8010, 0) }, 'cashew-gym');
    assert.equal(x.differentKind, 1);
    assert.equal(x.partOfTheRow, 1);
    assert.equal(featuresOf({ id: 'p', name: 'Cashew Heights', country: 'FR', ...at(8010, 0) }, 'cashew').partOfTheRow, 0);
  });

  it('numbers that disagree', () => {
    const assessed = [...features({ id: 'p', name: 'Hotel Paris Royal 99', country: 'FR', ...at(30, 30) }).values()];
    assert.ok(assessed.length > 0);
    for (const x of assessed) assert.equal(x.nameNumberConflict, 1);
  });
});

describe('decision features: the place', () => {
  it('distance as log10(1 + metres), postcode, street and house number, city, country, rating', () => {
    const row: PartnerHotel = {
      id: 'p',
      name: 'Lutetia',
      address: 'Boulevard Raspail 45',
      postalCode: '75 006',
      city: 'Paris',
      country: 'France',
      rating: 4,
      ...at(99, 0),
    };
    const x = featuresOf(row, 'lutetia');
    assert.ok(Math.abs(x.distance - 2) < 0.01, String(x.distance));
    assert.equal(x.postcode, 1);
    // 41 places share 75006.
    assert.equal(x.postcodeSharing, Math.log2(41));
    assert.equal(x.streetSimilarity, 1);
    assert.equal(x.houseNumberAgrees, 1);
    assert.equal(x.city, 1);
    assert.equal(x.country, 1);
    assert.equal(x.ratingDifference, 1);
    assert.deepEqual([x.partnerHasPin, x.partnerHasAddress, x.partnerHasPostcode], [1, 1, 1]);
  });

  it('what a side lacks is missing (NaN), never a mismatch', () => {
    const x = featuresOf({ id: 'p', name: 'Hotel Lutetia', country: 'FR' }, 'lutetia');
    for (const feature of [
      'distance',
      'postcode',
      'postcodeSharing',
      'streetSimilarity',
      'houseNumberAgrees',
      'city',
      'ratingDifference',
      'distanceRank',
    ] as const) {
      assert.ok(Number.isNaN(x[feature]), feature);
    }
    assert.deepEqual([x.partnerHasPin, x.partnerHasAddress, x.partnerHasPostcode], [0, 0, 0]);
  });

  it('a postcode one character off is a neighbour; another is a mismatch; a different house number disagrees', () => {
    assert.equal(featuresOf({ id: 'p', name: 'Hotel Lutetia', postalCode: '75007', country: 'FR', ...at(10, 0) }, 'lutetia').postcode, 0.5);
    assert.equal(featuresOf({ id: 'p', name: 'Hotel Lutetia', postalCode: '13001', country: 'FR', ...at(10, 0) }, 'lutetia').postcode, 0);
    assert.equal(
      featuresOf({ id: 'p', name: 'Hotel Lutetia', address: '12 Boulevard Raspail', country: 'FR', ...at(10, 0) }, 'lutetia')
        .houseNumberAgrees,
      0,
    );
  });
});

describe('decision features: the neighbourhood', () => {
  const chainRow: PartnerHotel = { id: 'p', name: 'Kopitiam Express', country: 'FR', ...at(6020, 0) };

  it('two outlets of a chain: each the other’s rival and namesake, the nearer one nearer, both chain outlets', () => {
    const all = features(chainRow);
    const near = all.get('kopi-a')!;
    const far = all.get('kopi-b')!;
    assert.deepEqual([near.rank, far.rank], [0, 1]);
    assert.deepEqual([near.candidates, far.candidates], [2, 2]);
    assert.deepEqual([near.namesakeCandidates, near.nearerNamesakeCandidates], [1, 0]);
    assert.deepEqual([far.namesakeCandidates, far.nearerNamesakeCandidates], [1, 1]);
    assert.deepEqual([near.distanceRank, far.distanceRank], [0, 1]);
    assert.equal(near.rivalDistance, far.distance);
    assert.equal(near.margin, -far.margin);
    assert.ok(near.margin > 0);
    assert.equal(near.rivalNameSimilarity, 1);
    assert.deepEqual([near.rivalLogOdds, far.rivalLogOdds], [far.evidenceLogOdds, near.evidenceLogOdds]);
    const { ranked } = matcher.candidates(preparePartner(index, chainRow));
    assert.equal(near.evidenceLogOdds, ranked[0]!.logOdds);
    assert.deepEqual([near.chainOutlet, far.chainOutlet], [1, 1]);
    assert.equal(near.namesakes, Math.log2(2));
    assert.ok(near.competitionProbability > far.competitionProbability);
    assert.ok(near.oddsShare > far.oddsShare);
    assert.equal(near.outletBeyondReach, 0);
  });

  it('an outlet over 100 m off with another within 500 m may be one the reference lacks', () => {
    const x = featuresOf({ id: 'p', name: 'Kopitiam Express', country: 'FR', ...at(5850, 0) }, 'kopi-a');
    assert.equal(x.outletBeyondReach, 1);
  });

  it('a row that names no chain has no chain outlets', () => {
    const x = featuresOf({ id: 'p', name: 'Hotel Lutetia', country: 'FR', ...at(10, 0) }, 'lutetia');
    assert.ok(Number.isNaN(x.chainOutlet) && Number.isNaN(x.outletBeyondReach));
  });
});

describe('probabilities shared among candidates', () => {
  it('two likely candidates that are two places share; one place listed twice does not', () => {
    // Odds 4 and 4 against "none of them" at 1: 4 / 9 each.
    assert.deepEqual(
      shareProbabilities(
        [0.8, 0.8],
        [
          [false, false],
          [false, false],
        ],
      ).map((p) => p.toFixed(4)),
      ['0.4444', '0.4444'],
    );
    assert.deepEqual(
      shareProbabilities(
        [0.8, 0.8],
        [
          [false, true],
          [true, false],
        ],
      ),
      [0.8, 0.8],
    );
    // A lone candidate keeps its probability; a clearly stronger one most of it.
    assert.deepEqual(shareProbabilities([0.6], [[false]]), [0.6]);
    const [strong, weak] = shareProbabilities(
      [0.99, 0.2],
      [
        [false, false],
        [false, false],
      ],
    );
    assert.ok(strong! > 0.98 && weak! < 0.01, `${strong} ${weak}`);
  });

  it('leaves an outlet halfway between two others of the chain for a reviewer', () => {
    const result = matcher.match({ id: 'p', name: 'Kopitiam Express', country: 'FR', ...at(6075, 0) });
    assert.equal(result.status, 'REVIEW');
    assert.match(result.reason ?? '', /ambiguous/);
    assert.ok(result.score <= 0.5 && result.candidates[0]!.score <= 0.5);
  });
});

describe('vetoes', () => {
  it('a part of the row or an outlet beyond reach is never MATCHED', () => {
    const vector = (name: DecisionFeature) => {
      const x = new Float64Array(DECISION_FEATURES.length);
      x[DECISION_FEATURES.indexOf(name)] = 1;
      return x;
    };
    assert.equal(vetoOf(vector('partOfTheRow')), 'part of the row');
    assert.equal(vetoOf(vector('outletBeyondReach')), 'outlet beyond reach');
    assert.equal(vetoOf(vector('exactName')), undefined);
    const result = matcher.match({ id: 'p', name: 'Cashew Heights', country: 'FR', ...at(8020, 0) });
    assert.ok(result.status !== 'MATCHED' || result.referenceHotelId === 'cashew', JSON.stringify(result));
  });
});
