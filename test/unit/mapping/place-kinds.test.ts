/** Kind-of-place words: a name plus a word for another kind of place is another place; a category tail is not. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { buildMatchingIndex, HotelMatcher, type PartnerHotel } from '../../../shared/mapping';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import { differentKindWord, isCategoryTail, locatesAnOutlet } from '../../../shared/mapping/place-kinds';

/** Both names' words and the words each lacks from the other, as compareNames would split them. */
function kindOf(a: string, b: string): string | undefined {
  const [wordsA, wordsB] = [a.split(' '), b.split(' ')];
  return differentKindWord(
    wordsA,
    wordsA.filter((w) => !wordsB.includes(w)),
    wordsB,
    wordsB.filter((w) => !wordsA.includes(w)),
  );
}

describe('differentKindWord', () => {
  it('names the word that makes a part or a neighbour of a place', () => {
    assert.equal(kindOf('cashew heights', 'cashew heights gym'), 'gym');
    assert.equal(kindOf('tuas naval base', 'tuas naval base medical center'), 'medical');
    assert.equal(kindOf('nathan residence', 'nathan road'), 'residence');
    assert.equal(kindOf('newton', 'newton flyover'), 'flyover');
    assert.equal(kindOf('hotel lutetia', 'hotel lutetia clinic'), 'clinic');
    assert.equal(kindOf('ecole jules ferry', 'ecole jules ferry piscine'), 'piscine');
  });

  it('reads a numbered block, tower or wing at the end of a name as a part of the place', () => {
    assert.equal(kindOf('mardan lintam court', 'mardan lintam court block 3'), 'block');
    assert.equal(kindOf('ridge view residence', 'ridge view residence tower b'), 'tower');
    assert.equal(kindOf('tower hotel', 'tower hotel 3'), undefined, 'a number alone is no part');
  });

  it('reads a clinic or a tennis court added to a bare name as another place', () => {
    assert.equal(kindOf('churchill peka', 'churchill peka clinic'), 'clinic');
    assert.equal(kindOf('koglabel towers', 'koglabel towers tennis court'), 'tennis');
  });

  it('takes a word for the same kind of place, or a kind added to a name with none, as a tail', () => {
    assert.equal(kindOf('komala vilas', 'komala vilas restaurant'), undefined, 'the name says no kind of its own');
    assert.equal(kindOf('sheng siong', 'sheng siong supermarket'), undefined);
    assert.equal(kindOf('grand hotel', 'grand hotel inn'), undefined, 'same kind');
    assert.equal(kindOf('hougang polyclinic', 'hougang dental polyclinic'), undefined, 'same kind, and not the head');
  });

  it('lets a lodging carry its street, its station and its spa', () => {
    assert.equal(kindOf('grand resort', 'grand resort spa'), undefined);
    assert.equal(kindOf('ibis hotel', 'ibis hotel gare'), undefined);
    assert.equal(kindOf('cashew heights', 'cashew heights spa'), 'spa');
  });

  it('reads a street with a name of its own as where the place is, a street named after the place as another place', () => {
    assert.equal(kindOf('7 eleven', '7 eleven maple drive'), undefined);
    assert.equal(kindOf('paul', 'paul rue gambetta'), undefined, 'the street word first, as French writes it');
    assert.equal(kindOf('tchibo', 'tchibo bahnhofallee'), undefined, 'a compound carries its own name');
    assert.equal(kindOf('nathan', 'nathan road'), 'road');
  });

  it('reads what a place is from its last kind word, not from where it is', () => {
    assert.equal(kindOf('varsity swimming pool', 'varsity condo swimming pool'), undefined);
    assert.equal(kindOf('empress road food center', 'empress road market food center'), undefined);
  });
});

describe('isCategoryTail', () => {
  it('takes words for what a brand trades as (coffee, pharmacy, hotel) as a tail, not a part, a street or an office', () => {
    assert.equal(isCategoryTail(['coffee']), true);
    assert.equal(isCategoryTail(['pharmacy']), true);
    assert.equal(isCategoryTail(['hotel', 'restaurant']), true);
    assert.equal(isCategoryTail(['gym']), false);
    assert.equal(isCategoryTail(['road']), false);
    assert.equal(isCategoryTail(['office']), false);
    assert.equal(isCategoryTail(['raffles', 'coffee']), false);
    assert.equal(isCategoryTail([]), false);
  });
});

describe('locatesAnOutlet', () => {
  it("reads a chain outlet's station or stadium as where it is, not a home's pool or a street named after the chain", () => {
    assert.equal(locatesAnOutlet('station', ['costa', 'coffee'], ['costa', 'coffee', 'central', 'station']), true);
    assert.equal(locatesAnOutlet('stadium', ['campanile'], ['campanile', 'stadium']), true);
    assert.equal(locatesAnOutlet('pool', ['dairy', 'farm', 'estate'], ['dairy', 'farm', 'estate', 'swimming', 'pool']), false);
    assert.equal(locatesAnOutlet('street', ['bugis'], ['bugis', 'street']), false);
  });
  it('reads a street with a name of its own as where the outlet is, even when that name is a kind of place', () => {
    assert.equal(locatesAnOutlet('avenue', ['tim', 'hortons'], ['tim', 'hortons', 'church', 'avenue']), true);
    assert.equal(locatesAnOutlet('lane', ['subway'], ['subway', 'station', 'lane']), true);
    assert.equal(locatesAnOutlet('road', ['tim', 'hortons'], ['tim', 'hortons', 'market', 'road']), true);
    assert.equal(locatesAnOutlet('road', ['tim', 'hortons'], ['tim', 'hortons', 'road']), false);
  });
});

describe('matching with kind-of-place words', () => {
  const places: ReferenceHotel[] = [
    { id: 'heights', name: 'Cashew Heights', country: 'SG', lat: 1.37, lon: 103.77, supplierCodes: {} },
    { id: 'gym', name: 'Cashew Heights Gym', country: 'SG', lat: 1.3702, lon: 103.7701, supplierCodes: {} },
    { id: 'komala', name: 'Komala Vilas', address: '76 Serangoon Road', country: 'SG', lat: 1.306, lon: 103.852, supplierCodes: {} },
    ...Array.from({ length: 40 }, (_, i): ReferenceHotel => ({
      id: `filler-${i}`,
      name: `Filler Place ${['North', 'South', 'East', 'West'][i % 4]} ${i}`,
      country: 'SG',
      lat: 1.3 + i / 1000,
      lon: 103.8 + i / 1000,
      supplierCodes: {},
    })),
  ];
  const matcher = (reference: ReferenceHotel[]) => new HotelMatcher(buildMatchingIndex(reference), { mode: 'STANDARD' });
  const row = (name: string, lat: number, lon: number): PartnerHotel => ({ id: 'p', name, country: 'SG', lat, lon });

  it('matches each of a place and its part to itself', () => {
    assert.equal(matcher(places).match(row('Cashew Heights Gym', 1.3702, 103.7701)).referenceHotelId, 'gym');
    const heights = matcher(places).match(row('Cashew Heights', 1.3701, 103.77));
    assert.equal(heights.referenceHotelId, 'heights');
    assert.equal(heights.status, 'MATCHED');
  });

  it('refuses the part for the place when the reference lacks the place, and tells the reviewer why', () => {
    const result = matcher(places.filter((place) => place.id !== 'heights')).match(row('Cashew Heights', 1.3701, 103.77));
    assert.notEqual(result.status, 'MATCHED');
    assert.match(result.reason ?? '', /extra word "gym" names a different kind of place/);
  });

  it('sends a part sharing the address and postcode of the place it is part of to REVIEW, not MATCHED', () => {
    const pool: ReferenceHotel = {
      id: 'pool',
      name: 'Dairy Vale Estate Swimming Pool',
      address: '7 Dairy Vale Road',
      postalCode: '679876',
      country: 'SG',
      lat: 1.36,
      lon: 103.77,
      supplierCodes: {},
    };
    const result = matcher([...places, pool]).match({
      ...row('Dairy Vale Estate', 1.3601, 103.7701),
      address: '7 Dairy Vale Road',
      postalCode: '679876',
    });
    assert.equal(result.status, 'REVIEW');
    assert.equal(result.referenceHotelId, 'pool');
    assert.match(
      result.reason ?? '',
      /extra word "swimming" names a different kind of place|extra word "pool" names a different kind of place/,
    );
  });

  it('sends a part named before the place, as French or Dutch write it, to REVIEW too', () => {
    const school: ReferenceHotel = {
      id: 'school',
      name: 'École Camping Venorsa',
      address: '3 Rue Haute',
      postalCode: '75011',
      country: 'FR',
      lat: 48.86,
      lon: 2.38,
      supplierCodes: {},
    };
    const result = matcher([...places, school]).match({
      id: 'p',
      name: 'Camping Venorsa',
      address: '3 Rue Haute',
      postalCode: '75011',
      country: 'FR',
      lat: 48.8601,
      lon: 2.3801,
    });
    assert.equal(result.status, 'REVIEW');
    assert.match(result.reason ?? '', /extra word "ecole"/);
  });

  it('only lowers a candidate whose kind word sits inside the name, where it may be where the place is', () => {
    const hotel: ReferenceHotel = {
      id: 'ramada',
      name: 'Ramada Station Luxembourg',
      address: '12 Rue de la Gare',
      postalCode: '1611',
      country: 'LU',
      lat: 49.6,
      lon: 6.13,
      supplierCodes: {},
    };
    const result = matcher([...places, hotel]).match({
      id: 'p',
      name: 'Ramada Luxembourg',
      address: '12 Rue de la Gare',
      postalCode: '1611',
      country: 'LU',
      lat: 49.6001,
      lon: 6.1301,
    });
    assert.equal(result.referenceHotelId, 'ramada');
    assert.equal(result.status, 'MATCHED');
  });

  it('accepts a category tail', () => {
    const result = matcher(places).match(row('Komala Vilas Restaurant', 1.3061, 103.8521));
    assert.equal(result.referenceHotelId, 'komala');
    assert.equal(result.status, 'MATCHED');
  });
});
