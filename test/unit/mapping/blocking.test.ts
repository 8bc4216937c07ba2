import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { textAt } from '../../../shared/mapping/columns';
import type { ReferenceHotel } from '../../../shared/mapping/hotels';
import { HotelMatcher } from '../../../shared/mapping/matcher';
import { preparePartner } from '../../../shared/mapping/partner-row';
import { buildMatchingIndex } from '../../../shared/mapping/matching-index-builder';
import { distanceMeters } from '../../../shared/mapping/similarity';

/** 5,000 "Grand Hotel <n>" on a 50 x 100 grid ~110 m apart around Lisbon, plus a few in Porto. */
function crowdedReference(): ReferenceHotel[] {
  const hotels: ReferenceHotel[] = [];
  for (let i = 0; i < 5_000; i++) {
    hotels.push({
      id: `lx-${i}`,
      name: `Grand Hotel ${i}`,
      country: 'PT',
      city: 'Lisbon',
      lat: 38.7 + Math.floor(i / 100) * 0.001,
      lon: -9.2 + (i % 100) * 0.00125,
      supplierCodes: {},
    });
  }
  hotels.push({ id: 'porto-1', name: 'Grand Hotel Batalha', country: 'PT', city: 'Porto', lat: 41.1456, lon: -8.6075, supplierCodes: {} });
  hotels.push({
    id: 'porto-2',
    name: 'Hotel Infante Sagres',
    country: 'Portugal',
    city: 'Porto',
    lat: 41.1474,
    lon: -8.6119,
    supplierCodes: {},
  });
  hotels.push({ id: 'madrid', name: 'Grand Hotel Batalha', country: 'ES', city: 'Madrid', lat: 40.4168, lon: -3.7038, supplierCodes: {} });
  return hotels;
}

const index = buildMatchingIndex(crowdedReference());

describe('geographic grid', () => {
  it('visits every hotel within the radius and none far away', () => {
    const lat = 38.72;
    const lon = -9.15;
    const visited = new Set<number>();
    index.visitNearby(lat, lon, 300, (hotel) => visited.add(hotel));
    const { latitudes, longitudes } = index.data;
    for (let hotel = 0; hotel < index.size; hotel++) {
      const distance = distanceMeters(lat, lon, latitudes[hotel]!, longitudes[hotel]!);
      if (distance <= 300) assert.ok(visited.has(hotel), `hotel ${hotel} at ${distance} m not visited`);
      // Cells are ~1.1 km: anything visited lies within the 3 x 3 block around the point.
      if (visited.has(hotel)) assert.ok(distance < 3_500, `hotel ${hotel} at ${distance} m visited`);
    }
    assert.ok(visited.size < index.size / 2, `visited ${visited.size} of ${index.size}`);
  });
});

describe('word postings', () => {
  it('restrict a word to one country as a sub-range', () => {
    const range = new Uint32Array(2);
    const tokenId = index.tokenId('batalha');
    index.postingRange(tokenId, 0, range);
    assert.equal(range[1]! - range[0]!, 2);
    index.postingRange(tokenId, index.countryId('PT'), range);
    assert.equal(range[1]! - range[0]!, 1);
    assert.equal(textAt(index.data.ids, index.data.postingHotels[range[0]!]!), 'porto-1');
  });
  it('compare countries written as names and codes as equal', () => {
    assert.equal(index.countryId('PT'), index.data.countryOfHotel[index.size - 2]);
  });
});

describe('blocking keeps the work small', () => {
  const matcher = new HotelMatcher(index, { mode: 'STANDARD' });
  it('fully scores only a short list even when thousands of hotels share the name words', () => {
    const hotel = { id: 'p', name: 'Grand Hotel 2550', country: 'PT', lat: 38.725, lon: -9.1375 };
    const row = matcher.matchRow(hotel);
    assert.equal(row.result.referenceHotelId, 'lx-2550');
    assert.equal(row.result.status, 'MATCHED');
    const { ranked } = matcher.candidates(preparePartner(index, hotel));
    assert.ok(ranked.length <= 16, `${ranked.length} candidates scored`);
  });
  it('without coordinates, searches the partner country by name', () => {
    const hotel = { id: 'p', name: 'Grand Hotel Batalha', country: 'Portugal', city: 'Porto' };
    const row = matcher.matchRow(hotel);
    assert.equal(row.result.referenceHotelId, 'porto-1');
    assert.ok(matcher.candidates(preparePartner(index, hotel)).ranked.length <= 16);
  });
  it('finds a hotel whose distinctive words are all misspelt, by trigrams near the pin', () => {
    const row = matcher.matchRow({ id: 'p', name: 'Hotel Infnate Sagers', lat: 41.1475, lon: -8.6121 });
    assert.equal(row.result.referenceHotelId, 'porto-2');
  });
});

describe('namesakes', () => {
  const hotel = (id: string, name: string, lat: number | undefined, lon: number | undefined, country = 'PT'): ReferenceHotel => ({
    id,
    name,
    country,
    lat,
    lon,
    supplierCodes: {},
  });
  const namesakes = buildMatchingIndex([
    hotel('a', 'Café Central', 38.7, -9.2),
    // Same words in another order and with a stop word: the same name, 5 km and 10 km away.
    hotel('b', 'Central Café', 38.745, -9.2),
    hotel('c', 'The Central Cafe', 38.79, -9.2),
    // 55 km and 300 km away: other areas.
    hotel('x', 'Café Central', 39.2, -9.2),
    hotel('d', 'Café Central', 41.15, -8.61),
    hotel('e', 'Café Central Lisboa', 38.7, -9.2),
    // Without coordinates: counted per country.
    hotel('f', 'Café Central', undefined, undefined, 'ES'),
    hotel('g', 'Café Central', undefined, undefined, 'ES'),
  ]);
  const ids = Array.from({ length: namesakes.size }, (_, hotel) => textAt(namesakes.data.ids, hotel));
  const countOf = (id: string) => namesakes.data.namesakeCounts[ids.indexOf(id)];

  // Areas are 0.1° squares with their eight neighbours: namesakes within 11 km always count, beyond 33 km never.
  it('counts hotels of the same name nearby, itself included', () => {
    assert.equal(countOf('a'), 3);
    assert.equal(countOf('c'), 3);
    assert.equal(countOf('x'), 1);
    assert.equal(countOf('d'), 1);
    assert.equal(countOf('e'), 1);
  });
  it('counts unlocated hotels by country', () => {
    assert.equal(countOf('f'), 2);
  });
});
