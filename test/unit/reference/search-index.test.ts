import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { searchFiltered, type FilteredSearch } from '../../../shared/reference/search/filtered-search';
import { haversineKm } from '../../../shared/reference/search/geo-search';
import { resolveRowFilter } from '../../../shared/reference/search/row-filter';
import {
  advancedSearch,
  buildSearchIndex,
  clampCountryStatisticsLimit,
  clampSearchLimit,
  isValidSearchOffset,
  loadIndex,
  resolveSearchOffset,
  search,
  selectSearchMode,
  serializeIndex,
  type ReferenceHotelSummary,
  type ReferenceSearchQuery,
} from '../../../shared/reference/search/search-index';
import { foldText } from '../../../shared/platform/text';

const handMade: ReferenceHotel[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Hôtel Le Petit Parisien',
    city: 'Paris',
    region: 'Île-de-France',
    country: 'France',
    countryCode: 'FR',
    lat: 48.8462,
    lon: 2.3372,
    rating: 3,
    supplierCodes: { HOTELBEDS: '1' },
    createdAt: '2020-01-01T00:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Sunrise Beach Resort Zanzibar',
    city: 'Zanzibar City',
    region: 'Zanzibar Urban/West',
    country: 'Tanzania',
    countryCode: 'TZ',
    supplierCodes: { EXPEDIA: '2' },
  },
];
const hotels = [...generateReferenceHotels({ count: 4000, seed: 5 }), ...handMade];
const index = buildSearchIndex(hotels);
const page = { limit: 100, offset: 0 };

function nameOrder(a: { name: string }, b: { name: string }): number {
  const foldedA = foldText(a.name);
  const foldedB = foldText(b.name);
  return foldedA < foldedB ? -1 : foldedA > foldedB ? 1 : 0;
}

/** Every result of a query, page by page. */
function allResults(query: ReferenceSearchQuery): ReferenceHotelSummary[] {
  const results: ReferenceHotelSummary[] = [];
  for (let offset = 0; ; offset += 100) {
    const current = search(index, { ...query, limit: 100, offset });
    results.push(...current.results);
    if (current.results.length < 100) return results;
  }
}

describe('search mode selection', () => {
  it('follows the spec: q, then lat+lon+radius, else filters', () => {
    assert.equal(selectSearchMode({ q: 'ibis', lat: 1, lon: 2, radius: 3 }), 'name');
    assert.equal(selectSearchMode({ lat: 1, lon: 2, radius: 3 }), 'geo');
    assert.equal(selectSearchMode({ lat: 1, lon: 2 }), 'filter');
    assert.equal(selectSearchMode({ q: '  ', lat: 1, lon: 2, radius: 3 }), 'geo');
    assert.equal(selectSearchMode({}), 'filter');
  });
});

describe('name mode', () => {
  const target = handMade[0] as ReferenceHotel;
  for (const [label, q] of [
    ['misspelt', 'Hotel Le Petit Parsien'],
    ['accent-stripped and lower case', 'hotel le petit parisien'],
    ['reordered', 'Parisien Petit Hôtel'],
    ['missing words', 'petit parisien'],
    ['typed halfway', 'le petit parisi'],
    ['transposed letters', 'Hotel Le Ptiet Parisien'],
  ] as const) {
    it(`finds the hotel at rank 1 when ${label}`, () => {
      const { results, total } = search(index, { q, ...page });
      assert.equal(results[0]?.id, target.id, `got ${results[0]?.name}`);
      assert.ok(total >= 1);
    });
  }

  it('finds generated hotels with a typo in their rarest word at rank 1', () => {
    const nameCounts = new Map<string, number>();
    for (const hotel of hotels) nameCounts.set(foldText(hotel.name), (nameCounts.get(foldText(hotel.name)) ?? 0) + 1);
    const unique = hotels.filter((hotel) => nameCounts.get(foldText(hotel.name)) === 1 && hotel.name.split(' ').length >= 3).slice(0, 30);
    let found = 0;
    for (const hotel of unique) {
      const words = hotel.name.split(' ');
      const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
      const misspelt = hotel.name.replace(longest, longest.slice(0, 2) + longest.slice(3));
      if (search(index, { q: misspelt, ...page }).results[0]?.id === hotel.id) found++;
    }
    assert.ok(found >= 27, `found ${found} of ${unique.length}`);
  });

  it('applies country (any case, or ISO code), region and city, but not rating', () => {
    const q = 'petit parisien';
    assert.equal(search(index, { q, country: 'FRANCE', ...page }).results[0]?.id, target.id);
    assert.equal(search(index, { q, country: 'fr', ...page }).results[0]?.id, target.id);
    assert.equal(search(index, { q, region: 'ile-de-france', city: 'paris', ...page }).results[0]?.id, target.id);
    assert.ok(!search(index, { q, country: 'Italy', ...page }).results.some((hotel) => hotel.id === target.id));
    assert.equal(search(index, { q, country: 'Atlantis', ...page }).total, 0);
    assert.equal(search(index, { q, rating: 5, ...page }).results[0]?.id, target.id);
  });

  it('returns summaries without metadata and omits missing values', () => {
    const [hotel] = search(index, { q: 'sunrise beach resort zanzibar', ...page }).results;
    assert.deepEqual(hotel, {
      id: handMade[1]?.id,
      name: 'Sunrise Beach Resort Zanzibar',
      city: 'Zanzibar City',
      region: 'Zanzibar Urban/West',
      country: 'Tanzania',
    });
  });

  it('finds nothing for words unknown to the inventory', () => {
    assert.deepEqual(search(index, { q: 'qwxzv plokijuh', ...page }), { results: [], total: 0 });
  });

  it('counts total before pagination and pages consistently', () => {
    const q = 'hiltn';
    const first = search(index, { q, limit: 10, offset: 0 });
    const second = search(index, { q, limit: 10, offset: 10 });
    const both = search(index, { q, limit: 20, offset: 0 });
    assert.ok(first.total > 20);
    assert.equal(second.total, first.total);
    assert.deepEqual([...first.results, ...second.results], both.results);
    assert.ok(both.results.every((hotel) => /hilton/i.test(hotel.name)));
  });
});

describe('typo tolerance', () => {
  const small = buildSearchIndex(
    ['Grachtenhotel Amstel', 'Hotel Plaza', 'Florence Palace', 'Ibis Budget'].map((name, i) => ({
      id: `id-${i}`,
      name,
      supplierCodes: {},
    })),
  );
  const names = (q: string) => search(small, { q, ...page }).results.map((hotel) => hotel.name);

  it('follows the longer word: two edits reach an 8-letter word from a 7-letter typo', () => {
    assert.deepEqual(names('Floerce'), ['Florence Palace']);
  });

  it('never lets a short typo match a much longer word', () => {
    assert.deepEqual(names('htoel plaza'), ['Hotel Plaza']);
    assert.deepEqual(names('htoel'), ['Hotel Plaza']);
  });

  it('requires short words to be exact, except as the typed prefix of the last word', () => {
    assert.deepEqual(names('ibs budget'), ['Ibis Budget']);
    assert.deepEqual(names('ibs'), []);
    assert.deepEqual(names('budg'), ['Ibis Budget']);
  });
});

describe('the shared fold (shared/platform/text.ts) in search', () => {
  const small = buildSearchIndex(
    [
      ["L'Hotel & Spa", 'Paris'],
      ['Hotel Spa Rimini', 'Rimini'],
      ['Hôtel Zürich Central', 'Zürich'],
      ['Гостиница Москва', 'Москва'],
      ["Macy's Inn", 'St. Moritz'],
      ['B&B Rose', 'Ghent'],
      ['Grand Hotel', 'Rome'],
    ].map(([name, city], i) => ({ id: `fold-${i}`, name: name as string, city, supplierCodes: {} })),
  );
  const names = (q: string) => search(small, { q, ...page }).results.map((hotel) => hotel.name);

  it('finds "L\'Hotel & Spa" by l\'hotel, hotel spa, accents, typographic apostrophes and typos', () => {
    assert.equal(names("l'hotel")[0], "L'Hotel & Spa");
    assert.equal(names('l hotel')[0], "L'Hotel & Spa");
    assert.equal(names('L’Hôtel & Spa')[0], "L'Hotel & Spa");
    assert.equal(names("l'hotel & spa")[0], "L'Hotel & Spa");
    assert.equal(names("l'hotle and spa")[0], "L'Hotel & Spa");
    assert.ok(names('hotel spa').includes("L'Hotel & Spa"));
    assert.deepEqual(names('hotel spa').slice(0, 2).sort(), ['Hotel Spa Rimini', "L'Hotel & Spa"]);
  });

  it('finds accented, other-script and punctuated names by their folded spelling', () => {
    assert.equal(names('hotel zurich')[0], 'Hôtel Zürich Central');
    assert.equal(names('zuerich central')[0], 'Hôtel Zürich Central');
    assert.equal(names('moskva')[0], 'Гостиница Москва');
    assert.equal(names('Москва')[0], 'Гостиница Москва');
    assert.equal(names("macy's")[0], "Macy's Inn");
    assert.equal(names('macys inn')[0], "Macy's Inn");
    assert.equal(names('b&b rose')[0], 'B&B Rose');
    assert.equal(names('bed and breakfast rose')[0], 'B&B Rose');
  });

  it('folds filter values and advanced name prefixes the same way', () => {
    assert.equal(search(small, { city: 'st moritz', ...page }).results[0]?.name, "Macy's Inn");
    assert.equal(search(small, { city: 'ZURICH', ...page }).results[0]?.name, 'Hôtel Zürich Central');
    assert.equal(search(small, { city: 'moskva', ...page }).results[0]?.name, 'Гостиница Москва');
    const advanced = advancedSearch(small, { name: "l'hot", limit: 10, offset: 0 });
    assert.deepEqual(
      advanced.results.map((hotel) => hotel.name),
      ["L'Hotel & Spa"],
    );
  });
});

describe('geo mode', () => {
  const withCoordinates = hotels.filter((hotel) => hotel.lat !== undefined && hotel.lon !== undefined);

  for (const [label, lat, lon, radius] of [
    ['Paris, 3 km', 48.8566, 2.3522, 3],
    ['London, 10 km', 51.5074, -0.1278, 10],
    ['Nadi (near the antimeridian), 25 km', -17.7765, 177.4356, 25],
    ['open sea, 5 km', 0, -30, 5],
  ] as const) {
    it(`matches a brute-force scan: ${label}`, () => {
      const expected = withCoordinates
        .map((hotel) => ({ id: hotel.id, distance: haversineKm(lat, lon, hotel.lat as number, hotel.lon as number) }))
        .filter((entry) => entry.distance <= radius);
      const results = allResults({ lat, lon, radius, ...page });
      assert.equal(search(index, { lat, lon, radius, ...page }).total, expected.length);
      assert.deepEqual(new Set(results.map((hotel) => hotel.id)), new Set(expected.map((entry) => entry.id)));
      const distances = results.map((hotel) => haversineKm(lat, lon, hotel.lat as number, hotel.lon as number));
      for (let i = 1; i < distances.length; i++) assert.ok((distances[i] as number) >= (distances[i - 1] as number), 'nearest first');
      assert.ok(distances.every((distance) => distance <= radius));
    });
  }

  it('finds hotels across the antimeridian', () => {
    const { results } = search(index, { lat: -17.7765, lon: -179.99, radius: 300, ...page });
    assert.ok(results.some((hotel) => hotel.city === 'Nadi'));
  });

  it('applies country and city, ignores region and rating', () => {
    const around = { lat: 48.8566, lon: 2.3522, radius: 5, ...page };
    const all = search(index, around).total;
    assert.ok(all > 0);
    assert.equal(search(index, { ...around, country: 'france' }).total, all);
    assert.equal(search(index, { ...around, country: 'Germany' }).total, 0);
    assert.equal(search(index, { ...around, city: 'PARIS' }).total, all);
    assert.equal(search(index, { ...around, region: 'Bavaria' }).total, all);
    assert.equal(search(index, { ...around, rating: 5 }).total, all);
  });
});

describe('filter mode', () => {
  it('returns hotels with at least the rating, sorted by name, total before pagination', () => {
    const expected = hotels.filter((hotel) => hotel.country === 'France' && (hotel.rating ?? 0) >= 4).sort(nameOrder);
    const results = allResults({ country: 'France', rating: 4, ...page });
    assert.deepEqual(
      results.map((hotel) => hotel.name),
      expected.map((hotel) => hotel.name),
    );
    const firstPage = search(index, { country: 'France', rating: 4, limit: 5, offset: 3 });
    assert.equal(firstPage.total, expected.length);
    assert.deepEqual(firstPage.results, results.slice(3, 8));
  });

  it('matches country case-insensitively and by ISO code', () => {
    const expected = hotels.filter((hotel) => hotel.country === 'Italy').length;
    for (const country of ['Italy', 'italy', 'ITALY', 'it']) {
      assert.equal(search(index, { country, ...page }).total, expected, country);
    }
  });

  it('applies region and city, accent- and case-insensitively', () => {
    const expected = hotels.filter((hotel) => hotel.city === 'Zürich').length;
    assert.ok(expected > 0);
    assert.equal(search(index, { city: 'zurich', ...page }).total, expected);
    const inRegion = hotels.filter((hotel) => hotel.region === 'Bavaria').length;
    assert.equal(search(index, { region: 'bavaria', ...page }).total, inRegion);
    assert.equal(search(index, { city: 'Munich', region: 'Saxony', ...page }).total, 0);
  });

  it('applies a minimum rating alone, excluding unrated hotels', () => {
    for (const rating of [1, 3, 5]) {
      const expected = hotels.filter((hotel) => hotel.rating !== undefined && hotel.rating >= rating).sort(nameOrder);
      const { total, results } = search(index, { rating, limit: 10, offset: 0 });
      assert.equal(total, expected.length);
      assert.deepEqual(
        results.map((hotel) => hotel.name),
        expected.slice(0, 10).map((hotel) => hotel.name),
      );
    }
  });

  it('lists every hotel in name order without filters', () => {
    const { total, results } = search(index, { limit: 100, offset: 0 });
    assert.equal(total, hotels.length);
    assert.deepEqual(results, [...results].sort(nameOrder));
  });
});

describe('advanced search', () => {
  const base = { limit: 100, offset: 0 };

  function all(query: Omit<Parameters<typeof advancedSearch>[1], 'limit' | 'offset'>): ReferenceHotelSummary[] {
    const results: ReferenceHotelSummary[] = [];
    for (let offset = 0; ; offset += 100) {
      const current = advancedSearch(index, { ...query, limit: 100, offset });
      results.push(...current.results);
      if (current.results.length < 100) return results;
    }
  }

  for (const sortDir of ['asc', 'desc'] as const) {
    it(`sorts by rating ${sortDir}, unrated last, ties by name`, () => {
      const results = all({ country: 'Spain', sortBy: 'rating', sortDir });
      assert.equal(results.length, hotels.filter((hotel) => hotel.country === 'Spain').length);
      const rated = results.filter((hotel) => hotel.rating !== undefined);
      assert.deepEqual(results.slice(0, rated.length), rated, 'unrated hotels come last');
      for (let i = 1; i < rated.length; i++) {
        const previous = rated[i - 1] as ReferenceHotelSummary;
        const current = rated[i] as ReferenceHotelSummary;
        const step =
          sortDir === 'asc'
            ? (current.rating as number) - (previous.rating as number)
            : (previous.rating as number) - (current.rating as number);
        assert.ok(step > 0 || (step === 0 && nameOrder(previous, current) <= 0), `${previous.name} then ${current.name}`);
      }
    });

    it(`sorts by creation time ${sortDir} across the whole inventory`, () => {
      const created = new Map(hotels.map((hotel) => [hotel.id, hotel.createdAt ? Date.parse(hotel.createdAt) : Number.NaN]));
      const results = all({ sortBy: 'created', sortDir });
      assert.equal(results.length, hotels.length);
      const times = results.map((hotel) => created.get(hotel.id) as number);
      const valued = times.filter((time) => !Number.isNaN(time));
      assert.deepEqual(
        valued,
        [...valued].sort((a, b) => (sortDir === 'asc' ? a - b : b - a)),
      );
      assert.ok(Number.isNaN(times.at(-1)), 'hotels without creation time last');
    });

    it(`sorts by name ${sortDir}`, () => {
      const results = all({ city: 'London', sortDir });
      const expected = hotels
        .filter((hotel) => hotel.city === 'London')
        .sort(nameOrder)
        .map((hotel) => hotel.name);
      assert.deepEqual(
        results.map((hotel) => hotel.name),
        sortDir === 'asc' ? expected : expected.reverse(),
      );
    });
  }

  it('keeps only hotels with coordinates as the sole filter, in every sort', () => {
    const expected = hotels.filter((hotel) => hotel.lat !== undefined).length;
    for (const sortBy of ['name', 'rating', 'created'] as const) {
      const { total, results } = advancedSearch(index, { hasCoordinates: true, sortBy, ...base });
      assert.equal(total, expected, sortBy);
      assert.ok(
        results.every((hotel) => hotel.lat !== undefined),
        sortBy,
      );
    }
  });

  it('keeps only hotels with coordinates when asked', () => {
    const results = all({ country: 'Thailand', hasCoordinates: true, rating: 3 });
    const expected = hotels.filter((hotel) => hotel.country === 'Thailand' && hotel.lat !== undefined && (hotel.rating ?? 0) >= 3);
    assert.equal(results.length, expected.length);
    assert.ok(results.every((hotel) => hotel.lat !== undefined && hotel.lon !== undefined));
    const withMissing = advancedSearch(index, { country: 'Thailand', ...base }).total;
    assert.ok(withMissing > expected.length);
  });

  it('filters by name word prefixes in any order and counts total before pagination', () => {
    const expected = hotels.filter((hotel) => {
      const words = foldText(hotel.name).split(/[^a-z0-9]+/);
      return words.some((word) => word.startsWith('ibis')) && words.some((word) => word.startsWith('par'));
    });
    const { total, results } = advancedSearch(index, { name: 'PAR ibis', sortBy: 'rating', sortDir: 'desc', limit: 3, offset: 0 });
    assert.ok(expected.length > 3);
    assert.equal(total, expected.length);
    assert.equal(results.length, 3);
  });
});

describe('filtered search strategies', () => {
  it('sorting candidates directly and walking the precomputed orders give the same pages', () => {
    const filters = [
      resolveRowFilter(index, { country: 'United States' }),
      resolveRowFilter(index, { city: 'paris', rating: 3 }),
      resolveRowFilter(index, { hasCoordinates: true, rating: 4 }),
      resolveRowFilter(index, {}),
    ];
    for (const filter of filters) {
      assert.ok(filter);
      for (const nameWordPrefixes of [undefined, 'hotel', 'hil in']) {
        for (const sortBy of ['rating', 'created'] as const) {
          for (const sortDir of ['asc', 'desc'] as const) {
            for (const offset of [0, 7]) {
              const request: FilteredSearch = { filter, nameWordPrefixes, sortBy, sortDir, limit: 15, offset };
              const direct = searchFiltered(index, { ...request, directSortMaxCandidates: Number.POSITIVE_INFINITY });
              const walked = searchFiltered(index, { ...request, directSortMaxCandidates: 0 });
              assert.deepEqual(walked, direct, JSON.stringify({ ...request, filter: undefined }));
            }
          }
        }
      }
    }
  });
});

describe('artifact round trip', () => {
  const queries: ReferenceSearchQuery[] = [
    { q: 'holiday in express londn', ...page },
    { q: 'petit parisien', country: 'fr', ...page },
    { lat: 40.7128, lon: -74.006, radius: 8, ...page },
    { country: 'Germany', rating: 3, limit: 20, offset: 40 },
    { city: 'tokyo', ...page },
  ];

  for (const gzip of [false, true]) {
    it(`answers identically after serialize and load (gzip ${gzip})`, () => {
      const loaded = loadIndex(serializeIndex(index, { gzip }));
      for (const query of queries) assert.deepEqual(search(loaded, query), search(index, query));
      const advanced = { country: 'Japan', sortBy: 'created', sortDir: 'desc', limit: 50, offset: 0 } as const;
      assert.deepEqual(advancedSearch(loaded, advanced), advancedSearch(index, advanced));
    });
  }

  it('loads from an unaligned buffer and rejects foreign bytes', () => {
    const artifact = serializeIndex(index);
    const shifted = new Uint8Array(artifact.length + 3);
    shifted.set(artifact, 3);
    assert.deepEqual(
      search(loadIndex(shifted.subarray(3)), queries[0] as ReferenceSearchQuery),
      search(index, queries[0] as ReferenceSearchQuery),
    );
    assert.throws(() => loadIndex(new TextEncoder().encode('not an index at all')), /Not a reference index/);
  });
});

describe('pagination beyond the matches', () => {
  it('answers an empty page with the right total for any offset', () => {
    for (const query of [{ q: 'hilton' }, { lat: 48.8566, lon: 2.3522, radius: 5 }, { country: 'France' }]) {
      const { total } = search(index, { ...query, ...page });
      assert.deepEqual(search(index, { ...query, limit: 20, offset: 1_000_000_000 }), { results: [], total });
    }
    const advanced = { sortBy: 'created', rating: 3, limit: 20, offset: 1_000_000_000 } as const;
    assert.deepEqual(advancedSearch(index, advanced).results, []);
  });
});

describe('excluded hotels', () => {
  it('are absent when the index is built from a filtered iterable', () => {
    const removed = handMade[0] as ReferenceHotel;
    const filtered = buildSearchIndex(hotels.filter((hotel) => hotel.id !== removed.id));
    assert.ok(!search(filtered, { q: 'petit parisien', ...page }).results.some((hotel) => hotel.id === removed.id));
    assert.equal(search(filtered, { ...page }).total, hotels.length - 1);
  });
});

describe('an empty inventory', () => {
  it('answers every mode with nothing', () => {
    const empty = loadIndex(serializeIndex(buildSearchIndex([])));
    for (const query of [{ q: 'ibis' }, { lat: 1, lon: 1, radius: 10 }, { country: 'France' }, {}]) {
      assert.deepEqual(search(empty, { ...query, ...page }), { results: [], total: 0 });
    }
    assert.deepEqual(advancedSearch(empty, { sortBy: 'rating', ...page }), { results: [], total: 0 });
  });
});

describe('query limits', () => {
  it('clamp limit and validate offset as the spec says', () => {
    assert.equal(clampSearchLimit(undefined), 20);
    assert.equal(clampSearchLimit(0), 1);
    assert.equal(clampSearchLimit(500), 100);
    assert.equal(clampSearchLimit(37), 37);
    assert.equal(clampCountryStatisticsLimit(undefined), 20);
    assert.equal(clampCountryStatisticsLimit(1000), 200);
    assert.equal(clampCountryStatisticsLimit(-4), 1);
    assert.equal(resolveSearchOffset(undefined), 0);
    assert.equal(isValidSearchOffset(-1), false);
    assert.equal(isValidSearchOffset(0), true);
    assert.equal(isValidSearchOffset(2.5), false);
  });
});
