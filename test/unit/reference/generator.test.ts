import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { formatCsvField as csvField } from '../../../shared/platform/files/csv-format';
import { csvLine, REFERENCE_CSV_COLUMNS } from '../../../shared/reference/inventory-file';
import { CITIES, COUNTRIES } from '../../../infra/synthetic/world-data';

const sample = [...generateReferenceHotels({ count: 5000, seed: 11 })];

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRadians = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRadians;
  const dLon = (lon2 - lon1) * toRadians;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRadians) * Math.cos(lat2 * toRadians) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

describe('generateReferenceHotels', () => {
  it('is deterministic for a seed and a prefix of longer runs', () => {
    const again = [...generateReferenceHotels({ count: 5000, seed: 11 })];
    assert.deepEqual(again, sample);
    const shorter = [...generateReferenceHotels({ count: 100, seed: 11 })];
    assert.deepEqual(shorter, sample.slice(0, 100));
  });

  it('gives different hotels for different seeds', () => {
    const other = [...generateReferenceHotels({ count: 100, seed: 12 })];
    assert.notDeepEqual(
      other.map((hotel) => hotel.id),
      sample.slice(0, 100).map((hotel) => hotel.id),
    );
  });

  it('uses unique UUID v4 ids', () => {
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const hotel of sample) assert.match(hotel.id, uuidV4);
    assert.equal(new Set(sample.map((hotel) => hotel.id)).size, sample.length);
  });

  it('places hotels in real cities of real countries, near the city centre', () => {
    const cityKeys = new Set(CITIES.map((city) => `${city.name}|${city.region}|${city.country.code}`));
    const countryNames = new Map(COUNTRIES.map((country) => [country.code, country.name]));
    for (const hotel of sample) {
      assert.ok(cityKeys.has(`${hotel.city}|${hotel.region}|${hotel.countryCode}`), `unknown city ${hotel.city}`);
      assert.equal(hotel.country, countryNames.get(hotel.countryCode as string));
      if (hotel.lat === undefined || hotel.lon === undefined) continue;
      const city = CITIES.find((c) => c.name === hotel.city && c.region === hotel.region) as (typeof CITIES)[number];
      assert.ok(haversineKm(city.lat, city.lon, hotel.lat, hotel.lon) < 25, `${hotel.name} too far from ${hotel.city}`);
    }
  });

  it('leaves a few percent without coordinates or rating, and ratings are 1 to 5 stars', () => {
    const withoutCoordinates = sample.filter((hotel) => hotel.lat === undefined).length / sample.length;
    const withoutRating = sample.filter((hotel) => hotel.rating === undefined).length / sample.length;
    assert.ok(withoutCoordinates > 0.01 && withoutCoordinates < 0.06, `share without coordinates ${withoutCoordinates}`);
    assert.ok(withoutRating > 0.03 && withoutRating < 0.12, `share without rating ${withoutRating}`);
    for (const hotel of sample) {
      if (hotel.rating !== undefined) assert.ok(Number.isInteger(hotel.rating) && hotel.rating >= 1 && hotel.rating <= 5);
      assert.equal(hotel.lat === undefined, hotel.lon === undefined);
    }
  });

  it('names chain hotels after their brand and city, and mixes in independent hotels', () => {
    const chained = sample.filter((hotel) => hotel.chain !== undefined);
    assert.ok(chained.length > sample.length * 0.3 && chained.length < sample.length * 0.6);
    for (const hotel of chained) {
      assert.ok(hotel.name.startsWith(hotel.chain as string), hotel.name);
      assert.ok(hotel.name.includes(hotel.city as string), hotel.name);
    }
    assert.ok(new Set(sample.map((hotel) => hotel.name)).size > sample.length * 0.6, 'names are varied');
    assert.ok(
      sample.some((hotel) => /[éèôöüáíóãç]/i.test(hotel.name)),
      'some names carry accents',
    );
  });

  it('gives 2 to 4 supplier codes with ids unique per supplier', () => {
    const seen = new Map<string, Set<string>>();
    for (const hotel of sample) {
      const codes = Object.entries(hotel.supplierCodes);
      assert.ok(codes.length >= 2 && codes.length <= 4);
      for (const [supplier, hotelId] of codes) {
        const ids = seen.get(supplier) ?? new Set<string>();
        assert.ok(!ids.has(hotelId), `${supplier}:${hotelId} repeated`);
        ids.add(hotelId);
        seen.set(supplier, ids);
      }
    }
    assert.equal(seen.size, 12);
  });

  it('writes addresses, postal codes and creation times', () => {
    for (const hotel of sample) {
      assert.ok(hotel.address && /\d/.test(hotel.address), `address ${hotel.address}`);
      assert.ok(!Number.isNaN(Date.parse(hotel.createdAt as string)));
    }
    const french = sample.filter((hotel) => hotel.countryCode === 'FR');
    assert.ok(french.length > 0);
    for (const hotel of french) assert.match(hotel.postalCode as string, /^\d{5}$/);
  });
});

describe('CSV lines', () => {
  it('quote fields with commas and quotes and list supplier codes', () => {
    assert.equal(csvField('Calle Mayor, 3'), '"Calle Mayor, 3"');
    assert.equal(csvField('The "Best" Inn'), '"The ""Best"" Inn"');
    assert.equal(csvField(undefined), '');
    const line = csvLine({ id: 'x', name: 'A, B', supplierCodes: { HOTELBEDS: '1', EXPEDIA: '2' }, lat: 1.5 });
    assert.equal(line, 'x,"A, B",,,,,,1.5,,,HOTELBEDS:1;EXPEDIA:2\n');
    assert.equal(REFERENCE_CSV_COLUMNS.length, 11);
  });
});
