import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { seedReferenceInventory } from '../../infra/local/seed';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { startTestApi } from '../support/test-api';

const INVENTORY = { hotels: 1500, seed: 7 };
const hotels = [...generateReferenceHotels({ count: INVENTORY.hotels, seed: INVENTORY.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, INVENTORY);
const caller = await api.newOrganization();

const get = (path: string, as = caller) => api.request('GET', path, { as });
const fold = (text: string | undefined) => (text ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** A hotel whose name no other hotel shares, with a long word to misspell. */
function distinctiveHotel(): ReferenceHotel & { word: string } {
  const counts = new Map<string, number>();
  for (const hotel of hotels) counts.set(hotel.name, (counts.get(hotel.name) ?? 0) + 1);
  for (const hotel of hotels) {
    const word = hotel.name.split(' ').find((w) => w.length >= 7 && /^[A-Za-z]+$/.test(w));
    if (counts.get(hotel.name) === 1 && word && hotel.name.split(' ').length >= 3) return { ...hotel, word };
  }
  throw new Error('no distinctive hotel in the generated set');
}

describe('GET /api/v1/reference/search', () => {
  it('name mode finds a hotel by a misspelt name, in any word order, without metadata', async () => {
    const hotel = distinctiveHotel();
    const typo = hotel.word.slice(0, 2) + hotel.word[3] + hotel.word[2] + hotel.word.slice(4);
    const misspelt = hotel.name.replace(hotel.word, typo);
    const { status, body } = await get(`/api/v1/reference/search?q=${encodeURIComponent(misspelt)}&limit=5`);
    assert.equal(status, 200);
    assert.equal(body.results[0].id, hotel.id, `"${misspelt}" finds "${hotel.name}" first`);
    assert.equal(body.results[0].metadata, undefined);
    const reordered = hotel.name.split(' ').reverse().join(' ');
    const again = await get(`/api/v1/reference/search?q=${encodeURIComponent(fold(reordered))}&limit=5`);
    assert.ok(
      again.body.results.some((r: { id: string }) => r.id === hotel.id),
      `"${reordered}" finds it`,
    );
  });

  it('name mode tolerates a missing word and missing accents', async () => {
    const hotel = distinctiveHotel();
    const dropped = hotel.name
      .split(' ')
      .filter((word) => word !== hotel.word)
      .join(' ');
    const missing = await get(`/api/v1/reference/search?q=${encodeURIComponent(dropped)}&limit=10`);
    assert.ok(
      missing.body.results.some((r: { id: string }) => r.id === hotel.id),
      `"${dropped}" finds "${hotel.name}"`,
    );

    const accented = hotels.find((h) => /[\u00C0-\u017F]/.test(h.name) && hotels.filter((o) => o.name === h.name).length === 1)!;
    const plain = fold(accented.name);
    const found = await get(`/api/v1/reference/search?q=${encodeURIComponent(plain)}&limit=5`);
    assert.equal(found.body.results[0].id, accented.id, `"${plain}" finds "${accented.name}" first`);
  });

  it('name mode ignores geo parameters and rating, and applies country case-insensitively', async () => {
    const hotel = distinctiveHotel();
    const q = encodeURIComponent(hotel.name);
    const plain = await get(`/api/v1/reference/search?q=${q}`);
    const withGeo = await get(`/api/v1/reference/search?q=${q}&lat=0&lon=0&radius=1&rating=5`);
    assert.deepEqual(withGeo.body, plain.body);
    const inCountry = await get(`/api/v1/reference/search?q=${q}&country=${encodeURIComponent(hotel.country!.toUpperCase())}`);
    assert.ok(inCountry.body.results.length > 0);
    assert.ok(inCountry.body.results.every((r: { country: string }) => r.country === hotel.country));
  });

  it('geo mode returns only hotels within the radius, nearest first, with the exact total', async () => {
    const centre = hotels.find((h) => h.lat !== undefined)!;
    const origin = { lat: centre.lat!, lon: centre.lon! };
    const radius = 5;
    const expected = hotels.filter((h) => h.lat !== undefined && distanceKm(origin, { lat: h.lat, lon: h.lon! }) <= radius);
    const { status, body } = await get(`/api/v1/reference/search?lat=${origin.lat}&lon=${origin.lon}&radius=${radius}&limit=100`);
    assert.equal(status, 200);
    assert.equal(body.total, expected.length);
    const distances = body.results.map((r: { lat: number; lon: number }) => distanceKm(origin, r));
    assert.ok(distances.every((d: number) => d <= radius + 1e-9));
    assert.deepEqual(
      distances,
      [...distances].sort((a, b) => a - b),
    );
  });

  it('filter mode applies country (any case), city and minimum rating, sorted by name, total before pagination', async () => {
    const sample = hotels.find((h) => h.city && h.country)!;
    const expected = hotels.filter((h) => h.country === sample.country && h.city === sample.city && (h.rating ?? -1) >= 3);
    const path = `/api/v1/reference/search?country=${encodeURIComponent(sample.country!.toLowerCase())}&city=${encodeURIComponent(sample.city!)}&rating=3&limit=100`;
    const { body } = await get(path);
    assert.equal(body.total, expected.length);
    assert.ok(body.results.every((r: { rating: number; city: string }) => r.rating >= 3 && r.city === sample.city));
    const names = body.results.map((r: { name: string }) => fold(r.name));
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('clamps limit to 1..100, pages with offset, and keeps total', async () => {
    const all = await get('/api/v1/reference/search?limit=500');
    assert.equal(all.body.results.length, 100);
    assert.equal(all.body.total, INVENTORY.hotels);
    assert.equal((await get('/api/v1/reference/search?limit=0')).body.results.length, 1);
    assert.equal((await get('/api/v1/reference/search')).body.results.length, 20);
    const page = await get('/api/v1/reference/search?limit=10&offset=10');
    assert.deepEqual(page.body.results, all.body.results.slice(10, 20));
    assert.equal(page.body.total, INVENTORY.hotels);
  });

  it('answers 400 naming the parameter for bad values', async () => {
    const cases: [string, RegExp][] = [
      ['offset=-1', /offset: must be zero or greater/],
      ['offset=1.5', /offset: must be a whole number/],
      ['limit=lots', /limit: must be a whole number/],
      ['lat=91&lon=0&radius=1', /lat: must be between -90 and 90/],
      ['lat=0&lon=200&radius=1', /lon: must be between -180 and 180/],
      ['lat=0&lon=0&radius=0', /radius: must be greater than 0/],
      ['rating=6', /rating: must be between 0 and 5/],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/v1/reference/search?${query}`);
      assert.equal(response.status, 400, query);
      assert.match(response.body.message, message);
    }
  });

  it('takes limit and offset as plain integers only, as every endpoint does, still clamping limit (issue 13)', async () => {
    for (const path of ['/api/v1/reference/search', '/api/v1/reference/search/advanced']) {
      for (const [query, message] of [
        ['limit=0x10', /^limit: must be a whole number$/],
        ['limit=1.5', /^limit: must be a whole number$/],
        ['limit=1e1', /^limit: must be a whole number$/],
        ['limit=+5', /^limit: must be a whole number$/],
        ['limit=%205', /^limit: must be a whole number$/],
        ['offset=0x10', /^offset: must be a whole number$/],
        ['offset=1e1', /^offset: must be a whole number$/],
      ] as const) {
        const response = await get(`${path}?${query}`);
        assert.equal(response.status, 400, `${path}?${query}`);
        assert.match(response.body.message, message);
      }
      assert.equal((await get(`${path}?limit=-5`)).body.results.length, 1, 'an integer below 1 clamps to 1');
      assert.equal((await get(`${path}?limit=100000000000`)).body.results.length, 100, 'a large integer clamps to 100');
    }
    assert.equal((await get('/api/v1/reference/statistics/countries?limit=0x10')).status, 400);
    assert.equal((await get('/api/v1/reference/statistics/countries?limit=2.5')).status, 400);
    assert.equal((await get('/api/v1/reference?expirationMinutes=0x10')).status, 400);
  });

  it('requires a credential', async () => {
    assert.equal((await api.request('GET', '/api/v1/reference/search?q=hotel')).status, 401);
    assert.equal((await api.request('GET', '/api/v1/reference/statistics')).status, 401);
  });
});

describe('GET /api/v1/reference/search/advanced', () => {
  it('sorts by rating both ways and filters to hotels with coordinates', async () => {
    const desc = await get('/api/v1/reference/search/advanced?sortBy=rating&sortDir=desc&hasCoordinates=true&limit=100');
    assert.equal(desc.status, 200);
    const expectedTotal = hotels.filter((h) => h.lat !== undefined && h.lon !== undefined).length;
    assert.equal(desc.body.total, expectedTotal);
    assert.ok(desc.body.results.every((r: { lat?: number; lon?: number }) => r.lat !== undefined && r.lon !== undefined));
    const ratings = desc.body.results.map((r: { rating?: number }) => r.rating ?? -1);
    assert.deepEqual(
      ratings,
      [...ratings].sort((a, b) => b - a),
    );
    const asc = await get('/api/v1/reference/search/advanced?sortBy=rating&sortDir=asc&rating=2&limit=100');
    const ascRatings = asc.body.results.map((r: { rating: number }) => r.rating);
    assert.ok(ascRatings.every((r: number) => r >= 2));
    assert.deepEqual(
      ascRatings,
      [...ascRatings].sort((a, b) => a - b),
    );
  });

  it('filters by name words and country', async () => {
    const hotel = distinctiveHotel();
    const { body } = await get(
      `/api/v1/reference/search/advanced?name=${encodeURIComponent(hotel.name)}&country=${encodeURIComponent(hotel.country!)}`,
    );
    assert.ok(body.results.some((r: { id: string }) => r.id === hotel.id));
  });

  it('answers 400 for bad sort or boolean values', async () => {
    assert.equal((await get('/api/v1/reference/search/advanced?sortBy=price')).status, 400);
    assert.equal((await get('/api/v1/reference/search/advanced?sortDir=up')).status, 400);
    assert.equal((await get('/api/v1/reference/search/advanced?hasCoordinates=maybe')).status, 400);
  });
});

describe('GET /api/v1/reference/{id}', () => {
  it('returns the hotel with its metadata', async () => {
    const hotel = hotels.find((h) => Object.keys(h.supplierCodes).length > 0 && h.lat !== undefined)!;
    const { status, body } = await get(`/api/v1/reference/${hotel.id}`);
    assert.equal(status, 200);
    assert.equal(body.id, hotel.id);
    assert.equal(body.name, hotel.name);
    assert.equal(body.lat, hotel.lat);
    assert.deepEqual(body.metadata.supplierCodes, hotel.supplierCodes);
    assert.equal(body.metadata.address, hotel.address);
    assert.match(body.metadata.source, /generated/);
    assert.ok(body.metadata.importId && body.metadata.createdAt && body.metadata.updatedAt);
    assert.equal(body.metadata.versionId, undefined, 'one name, one meaning: versionId is the publication the download names');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await get('/api/v1/reference/3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'Not Found');
    const malformed = await get('/api/v1/reference/not-a-uuid');
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /id: must be a UUID/);
  });
});

describe('GET /api/v1/reference (download)', () => {
  it('gives a temporary URL to the latest file, which needs no credential', async () => {
    const { status, body } = await get('/api/v1/reference?expirationMinutes=5');
    assert.equal(status, 200);
    assert.equal(body.hotelCount, INVENTORY.hotels);
    assert.equal(body.expiresAt, new Date(api.clock.now().getTime() + 5 * 60_000).toISOString());
    assert.match(body.fileUrl, /X-Amz-Expires=300/);
    const file = await fetch(body.fileUrl);
    assert.equal(file.status, 200);
    const lines = gunzipSync(Buffer.from(await file.arrayBuffer()))
      .toString('utf8')
      .trim()
      .split('\n');
    assert.equal(lines.length, INVENTORY.hotels);
    assert.ok(JSON.parse(lines[0]!).id);
    assert.match((await get('/api/v1/reference')).body.fileUrl, /X-Amz-Expires=3600/);
  });

  it('validates expirationMinutes and requires a credential', async () => {
    for (const minutes of ['0', '-5', 'soon', '20000']) {
      assert.equal((await get(`/api/v1/reference?expirationMinutes=${minutes}`)).status, 400, minutes);
    }
    assert.equal((await api.request('GET', '/api/v1/reference')).status, 401);
  });

  it('answers 404 before any inventory exists', async () => {
    const empty = await startTestApi();
    const someone = await empty.newOrganization();
    const response = await empty.request('GET', '/api/v1/reference', { as: someone });
    assert.equal(response.status, 404);
    assert.equal(response.body.error, 'Not Found');
    assert.deepEqual((await empty.request('GET', '/api/v1/reference/search', { as: someone })).body, { results: [], total: 0 });
  });
});

describe('statistics', () => {
  const byCountry = new Map<string, ReferenceHotel[]>();
  for (const hotel of hotels) if (hotel.country) byCountry.set(hotel.country, [...(byCountry.get(hotel.country) ?? []), hotel]);

  it('global counts match the imported data', async () => {
    const { body } = await get('/api/v1/reference/statistics');
    assert.equal(body.totalHotels, INVENTORY.hotels);
    assert.equal(body.totalCountries, byCountry.size);
    const cities = new Set(hotels.filter((h) => h.city && h.country).map((h) => `${h.country}|${h.city}`));
    assert.equal(body.totalCities, cities.size);
    const [top] = body.byCountry;
    assert.equal(top.hotelCount, Math.max(...[...byCountry.values()].map((list) => list.length)));
  });

  it('lists countries by count, descending, with limit clamped to 1..200', async () => {
    const { body } = await get('/api/v1/reference/statistics/countries?limit=5');
    assert.equal(body.length, Math.min(5, byCountry.size));
    const counts = body.map((c: { hotelCount: number }) => c.hotelCount);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    for (const entry of body) assert.equal(entry.hotelCount, byCountry.get(entry.country)!.length);
    assert.equal((await get('/api/v1/reference/statistics/countries')).body.length, Math.min(20, byCountry.size));
    assert.equal((await get('/api/v1/reference/statistics/countries?limit=0')).body.length, 1);
    assert.equal((await get('/api/v1/reference/statistics/countries?limit=1000')).body.length, Math.min(200, byCountry.size));
  });

  it('details one country, case-sensitively', async () => {
    const [country, list] = [...byCountry.entries()][0]!;
    const { status, body } = await get(`/api/v1/reference/statistics/countries/${encodeURIComponent(country)}`);
    assert.equal(status, 200);
    assert.equal(body.country, country);
    assert.equal(body.totalHotels, list.length);
    assert.equal(
      body.cities.reduce((sum: number, c: { hotelCount: number }) => sum + c.hotelCount, 0),
      list.filter((h) => h.city).length,
    );
    assert.equal((await get(`/api/v1/reference/statistics/countries/${encodeURIComponent(country.toLowerCase())}`)).status, 404);
    assert.equal((await get('/api/v1/reference/statistics/countries/Atlantis')).status, 404);
  });
});
