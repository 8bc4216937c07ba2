/**
 * Namesakes: for each hotel, how many hotels in its 0.1° area and the eight around it (about
 * 33 × 33 km) have a name of the same words, itself included (a chain's outlets, "Playground").
 * Counted once at build time by sorting (name hash, area) keys; plain typed arrays in and out, so
 * it can run on another thread.
 */
import { LONGITUDE_CELLS, CELL_DEGREES, latitudeCell, longitudeCell, lowerBound } from './matching-index';
import { tokenKind } from './text';

/** Edge of the areas, in grid cells, in which namesakeCounts counts namesakes (0.1°, about 11 km). */
const NAMESAKE_AREA_CELLS = 10;
const NAMESAKE_AREA_COLUMNS = Math.ceil(LONGITUDE_CELLS / NAMESAKE_AREA_CELLS);
const NAMESAKE_AREAS = Math.ceil(Math.round(180 / CELL_DEGREES) / NAMESAKE_AREA_CELLS + 1) * NAMESAKE_AREA_COLUMNS;

/** What namesakeCounts needs (plain typed arrays: it can run on another thread). */
export interface NamesakeInput {
  nameTokenOffsets: Uint32Array;
  nameTokenIds: Int32Array;
  /** Per token, its share of a name's hash (see namesakeWordHashes). */
  wordHashes: Int32Array;
  countryOfHotel: Uint16Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
}

/** Each word's share of the name hash; stop words have none. Summing makes the order not matter. */
export function namesakeWordHashes(vocabulary: readonly string[]): Int32Array {
  return Int32Array.from(vocabulary, (token, id) => (tokenKind(token) === 'stop' ? 0 : mixBits(id + 1)));
}

/**
 * Per hotel, how many hotels nearby (its 0.1° area and the eight around it; its country when it has
 * no coordinates) have a name of the same words, stop words aside, in any order: itself included.
 */
export function namesakeCounts({
  nameTokenOffsets,
  nameTokenIds,
  wordHashes,
  countryOfHotel,
  latitudes,
  longitudes,
}: NamesakeInput): Uint16Array {
  const count = countryOfHotel.length;
  const nameKeys = new Float64Array(count);
  const areas = new Int32Array(count);
  const keys = new Float64Array(count);
  for (let hotel = 0; hotel < count; hotel++) {
    let hash = 0;
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) hash = (hash + wordHashes[nameTokenIds[k]!]!) | 0;
    nameKeys[hotel] = (hash >>> 2) * 2 ** 23;
    areas[hotel] = Number.isNaN(latitudes[hotel]!)
      ? NAMESAKE_AREAS + countryOfHotel[hotel]!
      : Math.floor(latitudeCell(latitudes[hotel]!) / NAMESAKE_AREA_CELLS) * NAMESAKE_AREA_COLUMNS +
        Math.floor(longitudeCell(longitudes[hotel]!) / NAMESAKE_AREA_CELLS);
    // 30 bits of name hash above 23 bits of area: equal keys are namesakes in one area.
    keys[hotel] = nameKeys[hotel]! + areas[hotel]!;
  }
  const sorted = keys.slice().sort();
  const counts = new Uint16Array(count);
  const countHotel = (hotel: number, first: number, last: number) => {
    if (last - first === 1 || areas[hotel]! >= NAMESAKE_AREAS) {
      counts[hotel] = Math.min(65_535, occurrences(sorted, keys[hotel]!, first, last));
      return;
    }
    let namesakes = 0;
    for (let row = -1; row <= 1; row++) {
      for (let column = -1; column <= 1; column++) {
        const area = areas[hotel]! + row * NAMESAKE_AREA_COLUMNS + column;
        if (area >= 0 && area < NAMESAKE_AREAS) namesakes += occurrences(sorted, nameKeys[hotel]! + area, first, last);
      }
    }
    counts[hotel] = Math.min(65_535, namesakes);
  };
  if (count > 2 ** 21) {
    for (let hotel = 0; hotel < count; hotel++) {
      // All hotels of this name, whatever the area, sit in sorted[first, last).
      const first = lowerBound(sorted, nameKeys[hotel]!, 0, count);
      countHotel(hotel, first, lowerBound(sorted, nameKeys[hotel]! + 2 ** 23, first, count));
    }
    return counts;
  }
  // The same, a name at a time: hotels ordered by name hash (30 bits above the hotel's 21), so
  // each name's range in `sorted` is searched for once, not once per hotel.
  const byName = new Float64Array(count);
  for (let hotel = 0; hotel < count; hotel++) byName[hotel] = (nameKeys[hotel]! / 2 ** 23) * 2 ** 21 + hotel;
  byName.sort();
  for (let k = 0; k < count;) {
    const nameKey = nameKeys[byName[k]! % 2 ** 21]!;
    const first = lowerBound(sorted, nameKey, 0, count);
    const last = lowerBound(sorted, nameKey + 2 ** 23, first, count);
    for (; k < count && nameKeys[byName[k]! % 2 ** 21] === nameKey; k++) countHotel(byName[k]! % 2 ** 21, first, last);
  }
  return counts;
}

/** How many times `key` occurs in sorted[from, to). */
function occurrences(sorted: Float64Array, key: number, from: number, to: number): number {
  // Keys are integers below 2^53, so key + 1 is exact.
  return lowerBound(sorted, key + 1, from, to) - lowerBound(sorted, key, from, to);
}

/** A 32-bit integer's bits spread over the whole word (murmur3's finaliser). */
function mixBits(value: number): number {
  let hash = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}
