import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { serialize } from 'node:v8';
import { type TextColumn, textAt } from '../../../shared/mapping/columns';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import type { PartnerHotel } from '../../../shared/mapping';
import { MatchingIndex } from '../../../shared/mapping/matching-index';
import { shareMatchingIndex } from '../../../shared/mapping/matching-index-sharing';
import {
  buildMatchingIndex,
  deserializeMatchingIndex,
  HotelMatcher,
  mapHotels,
  serializeMatchingIndex,
  toExportRow,
  MAPPING_EXPORT_COLUMNS,
  type MappingResult,
} from '../../../shared/mapping';

/** A small city of hotels around (48.85, 2.35), with fillers so word rarity means something. */
function reference(): ReferenceHotel[] {
  const hotels: ReferenceHotel[] = [
    {
      id: 'lutetia',
      name: 'Hotel Lutetia',
      address: '45 Boulevard Raspail',
      postalCode: '75006',
      city: 'Paris',
      country: 'France',
      lat: 48.8511,
      lon: 2.3271,
      rating: 5,
      supplierCodes: { HOTELBEDS: '111', EXPEDIA: 'E-1' },
    },
    {
      id: 'ibis-nord',
      name: 'Ibis Paris Gare du Nord',
      address: '31 Rue de Dunkerque',
      postalCode: '75010',
      city: 'Paris',
      country: 'France',
      lat: 48.8804,
      lon: 2.3553,
      rating: 3,
      supplierCodes: { HOTELBEDS: '222' },
    },
    // Same chain, next door (200 m), different area word.
    {
      id: 'ibis-est',
      name: 'Ibis Paris Gare de l’Est',
      address: '5 Rue du 8 Mai 1945',
      postalCode: '75010',
      city: 'Paris',
      country: 'France',
      lat: 48.8785,
      lon: 2.3575,
      rating: 3,
      supplierCodes: { HOTELBEDS: '333' },
    },
    {
      id: 'moskva',
      name: 'Гостиница Москва',
      address: 'Охотный ряд 2',
      city: 'Москва',
      country: 'RU',
      lat: 55.7572,
      lon: 37.615,
      rating: 5,
      supplierCodes: {},
    },
    {
      id: 'muenchen',
      name: 'Hotel München Palace',
      address: 'Trogerstraße 21',
      postalCode: '81675',
      city: 'München',
      country: 'Germany',
      lat: 48.1372,
      lon: 11.6023,
      rating: 4,
      supplierCodes: {},
    },
    {
      id: 'no-pin',
      name: 'Hotel Saint-Louis en l’Isle',
      address: '75 Rue Saint-Louis en l’Île',
      postalCode: '75004',
      city: 'Paris',
      country: 'France',
      supplierCodes: {},
    },
  ];
  const areas = ['Montmartre', 'Bastille', 'Opera', 'Marais', 'Louvre', 'Invalides', 'Pigalle', 'Nation'];
  for (let i = 0; i < 60; i++) {
    hotels.push({
      id: `filler-${i}`,
      name: `Hotel ${areas[i % areas.length]} ${['Royal', 'Garden', 'Central', 'Plaza', 'Park'][i % 5]} ${i}`,
      city: 'Paris',
      country: 'FR',
      lat: 48.85 + ((i * 37) % 100) / 2000,
      lon: 2.3 + ((i * 53) % 100) / 1000,
      supplierCodes: {},
    });
  }
  return hotels;
}

const index = buildMatchingIndex(reference());
const standard = (partner: PartnerHotel): MappingResult => new HotelMatcher(index, { mode: 'STANDARD' }).match(partner);

describe('STANDARD mode', () => {
  it('matches a reworded, misspelt row with drifted coordinates', () => {
    const result = standard({
      id: 'p1',
      name: 'LUTETIA Htl',
      address: 'Bd Raspail 45',
      postalCode: '75 006',
      country: 'FR',
      lat: 48.8525,
      lon: 2.3285,
    });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.method, 'FUZZY');
    assert.equal(result.referenceHotelId, 'lutetia');
    assert.ok(result.score >= 0.9, `score ${result.score}`);
    assert.equal(result.evidence?.postalCodeMatch, true);
    assert.equal(result.evidence?.addressMatch, true);
    assert.ok(result.evidence.distanceMeters! > 100 && result.evidence.distanceMeters! < 300);
  });

  it('tells the same chain next door apart by its distinctive words', () => {
    const result = standard({ id: 'p2', name: 'ibis Paris Gare de l Est', country: 'France', lat: 48.8787, lon: 2.3573 });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.referenceHotelId, 'ibis-est');
    assert.equal(result.candidates[0]?.referenceHotelId, 'ibis-nord');
    assert.ok(result.candidates[0].score < 0.2);
  });

  it('gives a row that fits two look-alikes a score that says so, the other as the runner-up', () => {
    const result = standard({ id: 'p3', name: 'Ibis Paris Gare', country: 'FR', lat: 48.8795, lon: 2.3564 });
    assert.ok(['ibis-nord', 'ibis-est'].includes(result.referenceHotelId!));
    const other = result.candidates.find((candidate) => ['ibis-nord', 'ibis-est'].includes(candidate.referenceHotelId));
    assert.ok(other, JSON.stringify(result.candidates));
    // Their odds compete: neither is likely, the runner-up keeps a fair share.
    assert.ok(result.score < 0.6 && other.score > result.score / 3, `${result.score} / ${other.score}`);
  });

  it("gives each runner-up the evidence a proposal has: the runner-up's shared postcode and city are marked as the proposal's would be", () => {
    const row = {
      id: 'p3b',
      name: 'Ibis Paris Gare',
      address: '5 Rue du 8 Mai 1945',
      postalCode: '75010',
      city: 'Paris',
      country: 'FR',
      lat: 48.8795,
      lon: 2.3564,
    };
    const result = standard(row);
    const other = result.candidates.find((candidate) => ['ibis-nord', 'ibis-est'].includes(candidate.referenceHotelId));
    assert.ok(other && result.evidence, JSON.stringify(result));
    for (const field of [
      'nameSimilarity',
      'distanceMeters',
      'addressMatch',
      'addressSimilarity',
      'postalCodeMatch',
      'cityMatch',
      'countryMatch',
    ] as const) {
      assert.ok(field in other, `${field} in ${JSON.stringify(other)}`);
    }
    // Both Ibis share the row's postcode and city; only ibis-est is at its address.
    assert.equal(other.postalCodeMatch, true);
    assert.equal(other.cityMatch, true);
    assert.equal(other.countryMatch, true);
    assert.equal(other.addressMatch, other.referenceHotelId === 'ibis-est');
    assert.equal(result.evidence.addressMatch, result.referenceHotelId === 'ibis-est');
  });

  it('matches without coordinates on either side, by name, address and postcode', () => {
    const result = standard({
      id: 'p4',
      name: 'Hotel St Louis en l Isle',
      address: '75 rue St-Louis-en-l Ile',
      postalCode: '75004',
      city: 'Paris',
      country: 'France',
    });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.referenceHotelId, 'no-pin');
    assert.equal(result.evidence?.distanceMeters, null);
  });

  it('matches a partner row without coordinates to a hotel that has them', () => {
    const result = standard({ id: 'p5', name: 'Lutetia', city: 'Paris', country: 'FR', postalCode: '75006' });
    assert.equal(result.referenceHotelId, 'lutetia');
    assert.equal(result.status, 'MATCHED');
  });

  it('matches transliterated names (Cyrillic reference, Latin partner; umlaut written out)', () => {
    const moskva = standard({ id: 'p6', name: 'Gostinitsa Moskva', city: 'Moscow', country: 'Russia', lat: 55.7575, lon: 37.6155 });
    assert.equal(moskva.status, 'MATCHED');
    assert.equal(moskva.referenceHotelId, 'moskva');
    const muenchen = standard({
      id: 'p7',
      name: 'Hotel Muenchen Palace',
      address: 'Trogerstrasse 21',
      country: 'DE',
      lat: 48.1374,
      lon: 11.602,
    });
    assert.equal(muenchen.status, 'MATCHED');
    assert.equal(muenchen.referenceHotelId, 'muenchen');
  });

  it('leaves a hotel that is not in the reference unmatched', () => {
    const result = standard({
      id: 'p8',
      name: 'Le Bristol',
      address: '112 Rue du Faubourg Saint-Honoré',
      country: 'FR',
      lat: 48.8718,
      lon: 2.3147,
    });
    assert.equal(result.status, 'UNMATCHED');
    assert.equal(result.referenceHotelId, null);
    assert.equal(result.method, null);
    assert.ok(result.score < 0.35);
  });

  it('does not match a same-named hotel in another country', () => {
    const result = standard({ id: 'p9', name: 'Hotel Lutetia', country: 'Belgium', city: 'Brussels', lat: 50.8466, lon: 4.3528 });
    assert.notEqual(result.status, 'MATCHED');
  });

  it('does not penalise missing fields: a bare name with a close pin still matches', () => {
    const result = standard({ id: 'p10', name: 'Hotel Lutetia', lat: 48.8512, lon: 2.3272 });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.evidence?.addressMatch, null);
    assert.equal(result.evidence?.postalCodeMatch, null);
  });
});

describe('places inside places and chains with many outlets', () => {
  // A chain with eight outlets about 2.5 km apart, a hotel with a spa and a bar listed apart.
  const outlets = Array.from({ length: 8 }, (_, i): ReferenceHotel => ({
    id: `travelstop-${i}`,
    name: 'TravelStop',
    country: 'FR',
    lat: 48.85 + 0.025 * (i % 4),
    lon: 2.33 + 0.035 * Math.floor(i / 4),
    supplierCodes: {},
  }));
  const places: ReferenceHotel[] = [
    ...reference(),
    ...outlets,
    { id: 'rex', name: 'Hotel Rex Montparnasse', country: 'FR', lat: 48.842, lon: 2.32, supplierCodes: {} },
    { id: 'rex-spa', name: 'Spa Nuxe @ Hotel Rex Montparnasse', country: 'FR', lat: 48.8421, lon: 2.3202, supplierCodes: {} },
    { id: 'rex-bar', name: 'Rex Bar (Hotel Rex Montparnasse)', country: 'FR', lat: 48.8419, lon: 2.3199, supplierCodes: {} },
    { id: 'unique', name: 'Hotel Zephyrine', country: 'FR', lat: 48.86, lon: 2.37, supplierCodes: {} },
  ];
  const match = (partner: PartnerHotel) => new HotelMatcher(buildMatchingIndex(places), { mode: 'STANDARD' }).match(partner);

  it('matches the place itself, not what lies inside it', () => {
    const result = match({ id: 'p', name: 'Rex Montparnasse', country: 'FR', lat: 48.8421, lon: 2.3201 });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.referenceHotelId, 'rex');
    const spa = result.candidates.find((candidate) => candidate.referenceHotelId === 'rex-spa');
    assert.ok(spa === undefined || spa.score < 0.1, `spa ${spa?.score}`);
  });

  it('does not match a place to what lies inside it when the reference lacks the place', () => {
    const withoutHotel = new HotelMatcher(buildMatchingIndex(places.filter((place) => place.id !== 'rex' && place.id !== 'rex-bar')), {
      mode: 'STANDARD',
    });
    const result = withoutHotel.match({ id: 'p', name: 'Rex Montparnasse', country: 'FR', lat: 48.8421, lon: 2.3201 });
    assert.notEqual(result.status, 'MATCHED');
  });

  it('matches a place inside another by its own name, the container being only where it is', () => {
    const result = match({ id: 'p', name: 'Nuxe Spa (Rex Montparnasse)', country: 'FR', lat: 48.8421, lon: 2.3201 });
    assert.equal(result.referenceHotelId, 'rex-spa');
    assert.equal(result.status, 'MATCHED');
  });

  it('needs an outlet of a chain right there; a unique name may be further off, for a reviewer to confirm', () => {
    const beside = match({ id: 'p', name: 'Travelstop', country: 'FR', lat: 48.8501, lon: 2.3301 });
    assert.equal(beside.status, 'MATCHED');
    assert.equal(beside.referenceHotelId, 'travelstop-0');
    // 700 m from the nearest outlet, well beyond pin drift: likely another outlet the reference lacks.
    const offOutlet = match({ id: 'p', name: 'Travelstop', country: 'FR', lat: 48.8563, lon: 2.3301 });
    assert.notEqual(offOutlet.status, 'MATCHED');
    const offUnique = match({ id: 'p', name: 'Hotel Zephyrine', country: 'FR', lat: 48.8663, lon: 2.37 });
    assert.deepEqual([offUnique.referenceHotelId, offUnique.status], ['unique', 'REVIEW']);
    assert.ok(offUnique.score > offOutlet.score + 0.15, `${offUnique.score} vs ${offOutlet.score}`);
  });
});

describe('the nearest of several namesake outlets', () => {
  // A coffee chain downtown: outlets 120-300 m apart, around (1.2840, 103.8510); metres to degrees near the equator.
  const M = 1 / 111_195;
  const at = (north: number, east: number) => ({ lat: 1.284 + north * M, lon: 103.851 + east * M });
  const downtown: ReferenceHotel[] = [
    ...reference(),
    { id: 'kopi-a', name: 'Kopitiam Express', country: 'SG', ...at(0, 0), supplierCodes: {} },
    { id: 'kopi-b', name: 'Kopitiam Express', country: 'SG', ...at(150, 0), supplierCodes: {} },
    { id: 'kopi-c', name: 'Kopitiam Express', country: 'SG', ...at(0, 300), supplierCodes: {} },
    { id: 'kopi-d', name: 'Kopitiam Express', country: 'SG', ...at(-120, -200), supplierCodes: {} },
  ];
  const match = (partner: PartnerHotel) => new HotelMatcher(buildMatchingIndex(downtown), { mode: 'STANDARD' }).match(partner);

  it('matches the clearly nearest outlet, the others left as runners-up', () => {
    const result = match({ id: 'p', name: 'Kopitiam Express', country: 'SG', ...at(12, 15) });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.referenceHotelId, 'kopi-a');
    assert.ok(result.candidates.some((candidate) => candidate.referenceHotelId === 'kopi-b'));
  });

  it('tolerates typical pin drift: 50 m from one outlet, 110 m from the next', () => {
    const result = match({ id: 'p', name: 'Kopitiam Express', country: 'SG', ...at(100, 10) });
    assert.equal(result.referenceHotelId, 'kopi-b');
    assert.equal(result.status, 'MATCHED');
  });

  it('leaves a pin about as far from two outlets in REVIEW', () => {
    const result = match({ id: 'p', name: 'Kopitiam Express', country: 'SG', ...at(75, 0) });
    assert.equal(result.status, 'REVIEW');
    assert.match(result.reason ?? '', /ambiguous/);
  });

  it('leaves a pin between two outlets of the chain 90 m apart in REVIEW: not one place listed twice', () => {
    const close: ReferenceHotel[] = [
      ...downtown,
      { id: 'kopi-e', name: 'Kopitiam Express', country: 'SG', ...at(-120, -110), supplierCodes: {} },
    ];
    const result = new HotelMatcher(buildMatchingIndex(close), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Kopitiam Express',
      country: 'SG',
      ...at(-120, -155),
    });
    assert.equal(result.status, 'REVIEW');
    assert.match(result.reason ?? '', /ambiguous/);
  });

  it('changes nothing without a pin: the name alone cannot choose an outlet', () => {
    const result = match({ id: 'p', name: 'Kopitiam Express', country: 'SG' });
    assert.notEqual(result.status, 'MATCHED');
  });

  it("takes an outlet whose name adds where it is as the chain's, and lets distance choose", () => {
    // The row names the chain only; its outlet 30 m away is listed as "Kopitiam Express Telok Ayer".
    const withBranch = [
      ...downtown,
      { id: 'kopi-telok', name: 'Kopitiam Express Telok Ayer', country: 'SG', ...at(-400, 400), supplierCodes: {} } as ReferenceHotel,
    ];
    const result = new HotelMatcher(buildMatchingIndex(withBranch), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Kopitiam Express',
      country: 'SG',
      ...at(-380, 420),
    });
    assert.equal(result.referenceHotelId, 'kopi-telok');
    assert.equal(result.status, 'MATCHED');
  });

  it('finds an outlet named by where it is next to the pin, however many outlets bear the bare name farther off', () => {
    // Eight bare-named outlets within 1 km would fill the blocking shortlist on name alone.
    const crowd: ReferenceHotel[] = [
      ...reference(),
      ...[150, 250, 350, 450, 550, 650, 750, 850].map((north, k) => ({
        id: `nero-${k}`,
        name: 'Caffè Nero',
        country: 'GR',
        lat: 37.98 + north * M,
        lon: 23.73,
        supplierCodes: {},
      })),
      { id: 'nero-akadimias', name: 'Caffè Nero Akadimias', country: 'GR', lat: 37.98 - 15 * M, lon: 23.73, supplierCodes: {} },
    ];
    const result = new HotelMatcher(buildMatchingIndex(crowd), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Caffe Nero',
      country: 'GR',
      lat: 37.98,
      lon: 23.73,
    });
    assert.equal(result.referenceHotelId, 'nero-akadimias');
    assert.equal(result.status, 'MATCHED');
  });

  /** A chain: two outlets by its bare name 200 m and 440 m off the pin, and `outlet` right at it. */
  function nearestOutletOf(bareName: string, outlet: string, row: string) {
    const chain: ReferenceHotel[] = [
      ...downtown,
      { id: 'bare-a', name: bareName, country: 'SG', ...at(1000, 0), supplierCodes: {} },
      { id: 'bare-b', name: bareName, country: 'SG', ...at(1000, 250), supplierCodes: {} },
      { id: 'at-the-pin', name: outlet, country: 'SG', ...at(1000, -200), supplierCodes: {} },
    ];
    return new HotelMatcher(buildMatchingIndex(chain), { mode: 'STANDARD' }).match({
      id: 'p',
      name: row,
      country: 'SG',
      ...at(1010, -190),
    });
  }

  it('never matches a bare outlet 190 m off when an outlet named by where it is stands at the pin: a brand with a number, an outlet in a station, on a street named after a kind of place, a row without the trade', () => {
    const cases = [
      // A number in the brand; a station locates the outlet.
      ['7-Eleven', '7-Eleven Tanjong Pagar Station', '7-Eleven'],
      // Streets everywhere are named after churches, stations and markets.
      ['Tim Hortons', 'Tim Hortons Church Avenue', 'Tim Hortons'],
      ['Subway', 'Subway Station Lane', 'Subway'],
      // Feeds write a chain with or without what it trades as.
      ['Starbucks Coffee', 'Starbucks Coffee Raffles Place', 'Starbucks'],
    ];
    for (const [bareName, outlet, row] of cases) {
      const result = nearestOutletOf(bareName!, outlet!, row!);
      // On the labelled sets a bare name and one with place words are as often two places as one:
      // the outlet at the pin is proposed, or the row goes to a reviewer with it as a candidate.
      if (result.status === 'MATCHED') assert.equal(result.referenceHotelName, outlet, `${row} -> ${outlet}`);
      else
        assert.ok(
          [result.referenceHotelId, ...result.candidates.map((candidate) => candidate.referenceHotelId)].includes('at-the-pin'),
          `${row} -> ${outlet}`,
        );
    }
  });

  it('reads one bare namesake far off and an outlet named by where it is at the pin as a chain ("Days Inn" / "Days Inn Toronto-Beaches")', () => {
    const withLone = (bareNorth: number) => [
      ...downtown,
      { id: 'days-bare', name: 'Days Inn', country: 'SG', ...at(2000 + bareNorth, 0), supplierCodes: {} },
      { id: 'days-beaches', name: 'Days Inn Toronto-Beaches', country: 'SG', ...at(2000, 61), supplierCodes: {} },
    ];
    const row: PartnerHotel = { id: 'p', name: 'Days Inn', country: 'SG', ...at(2000, 0) };
    const farOff = new HotelMatcher(buildMatchingIndex(withLone(400)), { mode: 'STANDARD' }).match(row);
    // The outlet at the pin is proposed; whether a bare name is that outlet is the model's call.
    assert.equal(farOff.referenceHotelId, 'days-beaches');
    assert.notEqual(farOff.status, 'UNMATCHED');
    // The bare namesake not several times farther than the outlet: the name still counts.
    const near = new HotelMatcher(buildMatchingIndex(withLone(120)), { mode: 'STANDARD' }).match(row);
    assert.equal(near.referenceHotelId, 'days-bare');
  });

  it('reads a number as the brand unless an address word makes it a block ("Hotel 81", not "Blk 81")', () => {
    const chain: ReferenceHotel[] = [
      ...downtown,
      { id: 'h81-a', name: 'Hotel 81', country: 'SG', ...at(2000, 0), supplierCodes: {} },
      { id: 'h81-b', name: 'Hotel 81', country: 'SG', ...at(2000, 150), supplierCodes: {} },
      { id: 'h81-bay', name: 'Hotel 81 Bay', country: 'SG', ...at(2000, -150), supplierCodes: {} },
      { id: 'blk-a', name: 'Blk 81', country: 'SG', ...at(3000, 0), supplierCodes: {} },
      { id: 'blk-b', name: 'Blk 81', country: 'SG', ...at(3000, 150), supplierCodes: {} },
      { id: 'blk-road', name: 'Blk 81 Telok Blangah Road', country: 'SG', ...at(3000, -150), supplierCodes: {} },
    ];
    const matcher = new HotelMatcher(buildMatchingIndex(chain), { mode: 'STANDARD' });
    const hotel = matcher.match({ id: 'p', name: 'Hotel 81', country: 'SG', ...at(2000, -140) });
    assert.equal(hotel.referenceHotelId, 'h81-bay');
    assert.equal(hotel.status, 'MATCHED');
    // Not a chain: the bare block is the place, its longer namesake beside it another record.
    const block = matcher.match({ id: 'p', name: 'Blk 81', country: 'SG', ...at(3000, -140) });
    assert.notEqual(block.status === 'MATCHED' && block.referenceHotelId, 'blk-road');
  });

  it('sends a chain row whose nearest outlet is over 100 m off, another within 500 m, to REVIEW: its own outlet may be missing', () => {
    // 150 m from kopi-c, 450 m from kopi-a.
    const result = match({ id: 'p', name: 'Kopitiam Express', country: 'SG', ...at(0, 450) });
    assert.equal(result.referenceHotelId, 'kopi-c');
    assert.equal(result.status, 'REVIEW');
    assert.match(result.reason ?? '', /the chain's nearest outlet is 150 m away/);
  });

  it('keeps a far outlet MATCHED when the street or the postcode says which it is, or when no other outlet is near', () => {
    const addressed: ReferenceHotel[] = downtown.map((hotel) =>
      hotel.id === 'kopi-c' ? { ...hotel, address: '8 Cross Street', postalCode: '048424' } : hotel,
    );
    const byAddress = new HotelMatcher(buildMatchingIndex(addressed), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Kopitiam Express',
      country: 'SG',
      postalCode: '048424',
      ...at(0, 450),
    });
    assert.equal(byAddress.referenceHotelId, 'kopi-c');
    assert.equal(byAddress.status, 'MATCHED');
    // Two outlets 3 km apart: a pin 200 m off the nearer one is drift, not another outlet.
    const sparse: ReferenceHotel[] = [
      ...reference(),
      { id: 'far-a', name: 'Kopitiam Express', country: 'SG', ...at(0, 0), supplierCodes: {} },
      { id: 'far-b', name: 'Kopitiam Express', country: 'SG', ...at(0, 3000), supplierCodes: {} },
    ];
    const drift = new HotelMatcher(buildMatchingIndex(sparse), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Kopitiam Express',
      country: 'SG',
      ...at(200, 0),
    });
    assert.equal(drift.referenceHotelId, 'far-a');
    assert.notEqual(drift.reason ?? '', "the chain's nearest outlet is 200 m away: the partner's may be one the reference lacks");
  });

  it('does not count a look-alike with another name as a namesake', () => {
    // The partner's name fits "Kopitiam Express" better than "Kopitiam Express Raffles": no namesake discount between them.
    const withBranch = [
      ...downtown,
      { id: 'kopi-raffles', name: 'Kopitiam Express Raffles', country: 'SG', ...at(60, 0), supplierCodes: {} } as ReferenceHotel,
    ];
    const result = new HotelMatcher(buildMatchingIndex(withBranch), { mode: 'STANDARD' }).match({
      id: 'p',
      name: 'Kopitiam Express Raffles Place',
      country: 'SG',
      ...at(50, 0),
    });
    assert.equal(result.referenceHotelId, 'kopi-raffles');
  });
});

describe('ID_TO_ID mode', () => {
  const matcher = new HotelMatcher(index, { mode: 'ID_TO_ID' });
  it('matches through the supplier code, whatever the name says', () => {
    const result = matcher.match({
      id: 'p1',
      name: 'Some Other Spelling',
      supplierCode: 'hotelbeds',
      supplierHotelId: '222',
      lat: 48.8804,
      lon: 2.3553,
    });
    assert.equal(result.status, 'MATCHED');
    assert.equal(result.method, 'ID');
    assert.equal(result.referenceHotelId, 'ibis-nord');
    assert.equal(result.score, 1);
  });
  it('leaves rows without a known supplier code unmatched, even when the name would match', () => {
    const unknown = matcher.match({ id: 'p2', name: 'Hotel Lutetia', supplierCode: 'HOTELBEDS', supplierHotelId: '999' });
    assert.equal(unknown.status, 'UNMATCHED');
    assert.match(unknown.reason ?? '', /HOTELBEDS code 999/);
    const missing = matcher.match({ id: 'p3', name: 'Hotel Lutetia' });
    assert.equal(missing.status, 'UNMATCHED');
    assert.match(missing.reason ?? '', /no supplierCode/);
  });
  it('sends a supplier code pointing at a very different hotel far away to REVIEW', () => {
    const result = matcher.match({
      id: 'p4',
      name: 'Gostinitsa Moskva',
      supplierCode: 'EXPEDIA',
      supplierHotelId: 'E-1',
      lat: 55.7575,
      lon: 37.6155,
    });
    assert.equal(result.status, 'REVIEW');
    assert.equal(result.method, 'ID');
  });
});

describe('HYBRID mode', () => {
  it('uses the supplier code first and fuzzy matching for the rest', () => {
    const results = mapHotels(
      index,
      [
        { id: 'by-id', name: 'Whatever', supplierCode: 'HOTELBEDS', supplierHotelId: '111' },
        { id: 'by-name', name: 'Hotel Lutetia', supplierCode: 'HOTELBEDS', supplierHotelId: 'unknown', lat: 48.8512, lon: 2.3272 },
      ],
      { mode: 'HYBRID' },
    );
    assert.deepEqual(
      results.map((result) => [result.partnerHotelId, result.method, result.referenceHotelId]),
      [
        ['by-id', 'ID', 'lutetia'],
        ['by-name', 'FUZZY', 'lutetia'],
      ],
    );
  });
});

describe('two partner rows claiming one reference hotel', () => {
  it('keeps both when the partner listed the same hotel twice', () => {
    const results = mapHotels(
      index,
      [
        { id: 'a', name: 'Hotel Lutetia', lat: 48.8512, lon: 2.3272, postalCode: '75006' },
        { id: 'b', name: 'Lutetia Hotel', lat: 48.8513, lon: 2.327 },
      ],
      { mode: 'STANDARD' },
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ['MATCHED', 'MATCHED'],
    );
    assert.match(results[1]!.reason ?? '', /same hotel as partner row a/);
  });

  const strongClaim = {
    id: 'strong',
    name: 'Ibis Paris Gare du Nord',
    address: '31 Rue de Dunkerque',
    postalCode: '75010',
    lat: 48.8804,
    lon: 2.3553,
  };

  it('sends the weaker claim to REVIEW when no other candidate is convincing', () => {
    // Same name, but 300 m north of the hotel the strong row pins: not a duplicate row.
    const weakClaim = { id: 'weak', name: 'Ibis Paris Gare du Nord', lat: 48.883, lon: 2.3553 };
    assert.equal(standard(weakClaim).status, 'MATCHED');
    const [strong, weak] = mapHotels(index, [strongClaim, weakClaim], { mode: 'STANDARD' });
    assert.deepEqual([strong!.status, strong!.referenceHotelId], ['MATCHED', 'ibis-nord']);
    assert.deepEqual([weak!.status, weak!.referenceHotelId], ['REVIEW', 'ibis-nord']);
    assert.ok(weak!.score < 0.75);
    assert.match(weak!.reason ?? '', /also claimed by partner row strong/);
  });
});

describe("a result's reference hotel facts", () => {
  it('a proposed hotel comes with its supplier codes, city and country, by details or by code; no hotel, none', () => {
    const partner: PartnerHotel = { id: 'p', name: 'ibis gare de l est', lat: 48.8787, lon: 2.3573 };
    for (const mode of ['STANDARD', 'HYBRID'] as const) {
      const result = new HotelMatcher(index, { mode }).match({ ...partner, supplierCode: 'HOTELBEDS', supplierHotelId: '333' });
      assert.equal(result.referenceHotelId, 'ibis-est', mode);
      assert.deepEqual(
        [result.supplierCodes, result.referenceHotelCity, result.referenceHotelCountryCode],
        [{ HOTELBEDS: '333' }, 'Paris', 'FR'],
        mode,
      );
    }
    const nowhere = new HotelMatcher(index, { mode: 'STANDARD' }).match({ id: 'x', name: 'Zzyzx Qwerty Lodge', lat: -45, lon: 170 });
    assert.equal(nowhere.status, 'UNMATCHED');
    assert.deepEqual(
      [nowhere.supplierCodes, nowhere.referenceHotelCity, nowhere.referenceHotelCountryCode],
      [undefined, undefined, undefined],
    );
  });
});

describe('MappingResult export', () => {
  it('flattens into the export columns', () => {
    const result = standard({ id: 'p1', name: 'Hotel Lutetia', postalCode: '75006', lat: 48.8512, lon: 2.3272 });
    const row = toExportRow(
      { ...result, supplierCodes: { HOTELBEDS: '1', EXPEDIA: '2' } },
      { mappingJobId: 'job-1', partnerInventoryId: 'inv-1', suppliers: ['expedia'] },
    );
    assert.deepEqual(Object.keys(row), [...MAPPING_EXPORT_COLUMNS]);
    assert.deepEqual([row.mappingJobId, row.partnerInventoryId, row.supplierCodes], ['job-1', 'inv-1', { EXPEDIA: '2' }]);
    assert.equal(row.partnerHotelName, 'Hotel Lutetia');
    assert.equal(row.referenceHotelName, 'Hotel Lutetia');
    assert.equal(row.status, 'MATCHED');
    assert.equal(row.postalCodeMatch, true);
    assert.equal(typeof row.nameSimilarity, 'number');
    assert.match(String(row.candidates), /^([\w-]+:[0-9.]+)?(;[\w-]+:[0-9.]+)*$/);
  });
});

describe('index serialisation', () => {
  it('round-trips to a Buffer and matches the same way', () => {
    const restored = deserializeMatchingIndex(serializeMatchingIndex(index));
    const partner: PartnerHotel = {
      id: 'p',
      name: 'ibis gare de l est',
      lat: 48.8787,
      lon: 2.3573,
      supplierCode: 'HOTELBEDS',
      supplierHotelId: '333',
    };
    for (const mode of ['STANDARD', 'HYBRID'] as const) {
      assert.deepEqual(new HotelMatcher(restored, { mode }).match(partner), new HotelMatcher(index, { mode }).match(partner));
    }
  });
  it('reads a snapshot stored before the text columns and the supplier lookup (string arrays and a Map, format 3) as it reads one now', () => {
    const textColumns = ['ids', 'names', 'postalCodes', 'addressWords', 'addressNumbers'] as const;
    const valuesOf = (column: TextColumn) => Array.from(column.starts, (_, hotel) => textAt(column, hotel));
    const older: Record<string, unknown> = { ...index.data, format: 'hotel-matching-index/3' };
    for (const column of textColumns) older[column] = valuesOf(index.data[column]);
    const lookup = index.data.supplierHotels!;
    older.supplierHotels = new Map(Array.from(lookup.hotels, (hotel, key) => [textAt(lookup.keys, key), hotel]));
    const restored = deserializeMatchingIndex(serialize(older));
    for (const column of textColumns) assert.deepEqual(valuesOf(restored.data[column]), older[column], column);
    assert.equal(restored.data.format, index.data.format);
    assert.deepEqual([...restored.data.postalCodeHashes], [...index.data.postalCodeHashes]);
    assert.deepEqual([...restored.data.addressWordsHashes], [...index.data.addressWordsHashes]);
    const partner: PartnerHotel = {
      id: 'p',
      name: 'ibis gare de l est',
      lat: 48.8787,
      lon: 2.3573,
      postalCode: '75010',
      address: '197 rue La Fayette',
      supplierCode: 'HOTELBEDS',
      supplierHotelId: '333',
    };
    assert.deepEqual(
      new HotelMatcher(restored, { mode: 'HYBRID' }).match(partner),
      new HotelMatcher(index, { mode: 'HYBRID' }).match(partner),
    );
  });
  it('rejects a buffer that is not an index', () => {
    assert.throws(() => deserializeMatchingIndex(Buffer.from([1, 2, 3])));
  });
});

describe('index shared with worker threads', () => {
  /** Every typed array in the data, inside text columns and the supplier lookup too, by path. */
  function typedArrays(value: unknown, path = ''): [string, ArrayBufferView][] {
    if (ArrayBuffer.isView(value)) return [[path, value]];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
    return Object.entries(value).flatMap(([key, field]) => typedArrays(field, `${path}.${key}`));
  }
  const partner: PartnerHotel = {
    id: 'p',
    name: 'ibis gare de l est',
    lat: 48.8787,
    lon: 2.3573,
    supplierCode: 'HOTELBEDS',
    supplierHotelId: '333',
  };

  it('puts every typed array in shared memory (posted to a worker, they are not copied), with the same contents, and matches the same way', () => {
    const shared = shareMatchingIndex(index);
    const arrays = typedArrays(shared);
    assert.ok(
      arrays.some(([path]) => path === '.supplierHotels.hotels') && arrays.some(([path]) => path === '.names.starts'),
      arrays.map(([path]) => path).join(),
    );
    const original = new Map(typedArrays(index.data));
    for (const [path, array] of arrays) {
      assert.ok(array.buffer instanceof SharedArrayBuffer, path);
      assert.deepEqual(
        Buffer.from(array.buffer, array.byteOffset, array.byteLength),
        Buffer.from(original.get(path)!.buffer, original.get(path)!.byteOffset, original.get(path)!.byteLength),
        path,
      );
    }
    assert.deepEqual(new Set(original.keys()), new Set(arrays.map(([path]) => path)));
    for (const mode of ['STANDARD', 'HYBRID'] as const) {
      assert.deepEqual(
        new HotelMatcher(new MatchingIndex(shared), { mode }).match(partner),
        new HotelMatcher(index, { mode }).match(partner),
      );
    }
  });
});
