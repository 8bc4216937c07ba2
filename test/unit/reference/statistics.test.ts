import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import {
  buildSearchIndex,
  computeStatisticsArtifact,
  countryStatistics,
  globalStatistics,
  loadStatistics,
  serializeStatistics,
  topCountries,
} from '../../../shared/reference/search/search-index';

const hotels: ReferenceHotel[] = [
  ...generateReferenceHotels({ count: 3000, seed: 9 }),
  // Edge cases: no country, no city, a city name shared by two countries.
  { id: 'a', name: 'Nowhere Inn', supplierCodes: {} },
  { id: 'b', name: 'Countryside Lodge', country: 'France', supplierCodes: {} },
  { id: 'c', name: 'Texas Paris Motel', country: 'United States', city: 'Paris', supplierCodes: {} },
];
const statistics = loadStatistics(serializeStatistics(computeStatisticsArtifact(buildSearchIndex(hotels).columns)));

function bruteForceCountries(): Map<string, ReferenceHotel[]> {
  const byCountry = new Map<string, ReferenceHotel[]>();
  for (const hotel of hotels) {
    if (hotel.country === undefined) continue;
    byCountry.set(hotel.country, [...(byCountry.get(hotel.country) ?? []), hotel]);
  }
  return byCountry;
}

describe('reference statistics', () => {
  it('global counts equal brute-force counts', () => {
    const byCountry = bruteForceCountries();
    const cities = new Set(hotels.filter((hotel) => hotel.city).map((hotel) => `${hotel.country}|${hotel.city}`));
    const global = globalStatistics(statistics);
    assert.equal(global.totalHotels, hotels.length);
    assert.equal(global.totalCountries, byCountry.size);
    assert.equal(global.totalCities, cities.size);
    assert.deepEqual(
      new Map(global.byCountry.map((entry) => [entry.country, entry.hotelCount])),
      new Map([...byCountry].map(([country, list]) => [country, list.length])),
    );
    const counts = global.byCountry.map((entry) => entry.hotelCount);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
  });

  it('lists the top countries up to the limit', () => {
    const top = topCountries(statistics, 5);
    assert.equal(top.length, 5);
    assert.deepEqual(top, globalStatistics(statistics).byCountry.slice(0, 5));
  });

  it('details a country by its exact stored name only', () => {
    const france = bruteForceCountries().get('France') as ReferenceHotel[];
    const detail = countryStatistics(statistics, 'France');
    assert.ok(detail);
    assert.equal(detail.country, 'France');
    assert.equal(detail.totalHotels, france.length);
    const expectedCities = new Map<string, number>();
    for (const hotel of france) if (hotel.city) expectedCities.set(hotel.city, (expectedCities.get(hotel.city) ?? 0) + 1);
    assert.deepEqual(new Map(detail.cities.map((entry) => [entry.city, entry.hotelCount])), expectedCities);
    const counts = detail.cities.map((entry) => entry.hotelCount);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    assert.equal(countryStatistics(statistics, 'france'), undefined);
    assert.equal(countryStatistics(statistics, 'Atlantis'), undefined);
    assert.equal(countryStatistics(statistics, '__proto__'), undefined);
  });

  it('keeps same-named cities of different countries apart', () => {
    const parisTexas = countryStatistics(statistics, 'United States')?.cities.find((entry) => entry.city === 'Paris');
    const expected = hotels.filter((hotel) => hotel.country === 'United States' && hotel.city === 'Paris').length;
    assert.equal(parisTexas?.hotelCount, expected);
  });
});
