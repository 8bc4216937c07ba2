/**
 * Builds the in-memory search index from reference hotels. Hotels to exclude (e.g. duplicates
 * merged away) are excluded by filtering the iterable before building: the index holds exactly
 * the hotels it is given.
 */
import KDBush from 'kdbush';
import type { ReferenceHotel } from '../../mapping';
import { DictionaryEncoder, MISSING_CODE, buildPostingLists, encodeStringColumn, type DictionaryColumn } from './columns';
import {
  INDEX_FORMAT_VERSION,
  hydrateIndex,
  inverseDocumentFrequency,
  type FilterKeyColumns,
  type IndexColumns,
  type ReferenceSearchIndex,
} from './index-model';
import { foldText, splitFoldedText } from '../../platform/text';

/** Hotels as collected from the input, in input order. */
interface CollectedHotels {
  ids: string[];
  names: string[];
  foldedNames: string[];
  country: DictionaryEncoder;
  countryCodes: number[];
  countryIsoCodes: Map<number, string>;
  city: DictionaryEncoder;
  cityCodes: number[];
  region: DictionaryEncoder;
  regionCodes: number[];
  lat: number[];
  lon: number[];
  rating: number[];
  createdAt: number[];
}

/** The reference SEARCH index (name, geo, filter and advanced search); the matching engine's index is `buildMatchingIndex` in shared/mapping. */
export function buildSearchIndex(hotels: Iterable<ReferenceHotel>): ReferenceSearchIndex {
  return hydrateIndex(buildIndexColumns(hotels));
}

export function buildIndexColumns(hotels: Iterable<ReferenceHotel>): IndexColumns {
  const collected = collect(hotels);
  const nameOrder = sortByName(collected);
  const hotelCount = nameOrder.length;
  const inNameOrder = <T>(values: readonly T[]): T[] => Array.from(nameOrder, (input) => values[input] as T);
  const numbersInNameOrder = <A extends Float64Array | Uint32Array>(values: readonly number[], target: A): A => {
    nameOrder.forEach((input, row) => {
      target[row] = values[input]!;
    });
    return target;
  };

  const country = { values: collected.country.values, codes: numbersInNameOrder(collected.countryCodes, new Uint32Array(hotelCount)) };
  const city = { values: collected.city.values, codes: numbersInNameOrder(collected.cityCodes, new Uint32Array(hotelCount)) };
  const region = { values: collected.region.values, codes: numbersInNameOrder(collected.regionCodes, new Uint32Array(hotelCount)) };
  const lat = numbersInNameOrder(collected.lat, new Float64Array(hotelCount));
  const lon = numbersInNameOrder(collected.lon, new Float64Array(hotelCount));
  const rating = numbersInNameOrder(collected.rating, new Float64Array(hotelCount));
  const createdAt = numbersInNameOrder(collected.createdAt, new Float64Array(hotelCount));
  const names = inNameOrder(collected.names);
  const nameIndex = buildNameIndex(inNameOrder(collected.foldedNames), hotelCount);
  const geo = buildGeoTree(lat, lon);

  return {
    formatVersion: INDEX_FORMAT_VERSION,
    hotelCount,
    ids: encodeStringColumn(inNameOrder(collected.ids)),
    names: encodeStringColumn(names),
    country,
    countryIsoCodes: country.values.map((_, value) => collected.countryIsoCodes.get(value) ?? ''),
    city,
    region,
    lat,
    lon,
    rating,
    createdAt,
    ratingOrder: orderByValue(rating),
    createdOrder: orderByValue(createdAt),
    ...nameIndex,
    countryKeys: filterKeys(country),
    cityKeys: filterKeys(city),
    regionKeys: filterKeys(region),
    ...geo,
  };
}

function collect(hotels: Iterable<ReferenceHotel>): CollectedHotels {
  const collected: CollectedHotels = {
    ids: [],
    names: [],
    foldedNames: [],
    country: new DictionaryEncoder(),
    countryCodes: [],
    countryIsoCodes: new Map(),
    city: new DictionaryEncoder(),
    cityCodes: [],
    region: new DictionaryEncoder(),
    regionCodes: [],
    lat: [],
    lon: [],
    rating: [],
    createdAt: [],
  };
  for (const hotel of hotels) {
    collected.ids.push(hotel.id);
    collected.names.push(hotel.name);
    collected.foldedNames.push(foldText(hotel.name));
    const countryCode = collected.country.encode(hotel.country);
    collected.countryCodes.push(countryCode);
    if (hotel.countryCode && countryCode !== MISSING_CODE && !collected.countryIsoCodes.has(countryCode)) {
      collected.countryIsoCodes.set(countryCode, hotel.countryCode);
    }
    collected.cityCodes.push(collected.city.encode(hotel.city));
    collected.regionCodes.push(collected.region.encode(hotel.region));
    const hasCoordinates = Number.isFinite(hotel.lat) && Number.isFinite(hotel.lon);
    collected.lat.push(hasCoordinates ? (hotel.lat as number) : Number.NaN);
    collected.lon.push(hasCoordinates ? (hotel.lon as number) : Number.NaN);
    collected.rating.push(hotel.rating ?? Number.NaN);
    collected.createdAt.push(hotel.createdAt ? Date.parse(hotel.createdAt) : Number.NaN);
  }
  return collected;
}

/**
 * Input positions sorted by folded name, then name; identical names keep input order. Sorting the
 * distinct names natively and grouping rows under them is several times faster than sorting a
 * million rows with a comparator.
 */
function sortByName({ foldedNames, names }: CollectedHotels): Uint32Array {
  const rowsByName = new Map<string, number[]>();
  foldedNames.forEach((folded, row) => {
    // U+0001 sorts below every character of a name, so "a\u0001..." orders like the pair (folded, name).
    const key = `${folded}\u0001${names[row]}`;
    const rows = rowsByName.get(key);
    if (rows) rows.push(row);
    else rowsByName.set(key, [row]);
  });
  const order = new Uint32Array(names.length);
  let position = 0;
  for (const key of [...rowsByName.keys()].sort()) for (const row of rowsByName.get(key) as number[]) order[position++] = row;
  return order;
}

/**
 * Rows ascending by value then row (= name), rows without a value (NaN) last: a native sort of
 * the distinct values, then a stable counting sort of the rows by the rank of their value.
 */
function orderByValue(values: Float64Array): Uint32Array {
  const distinct = values.filter((value) => !Number.isNaN(value)).sort();
  const ranks = distinct.filter((value, i) => i === 0 || value !== distinct[i - 1]);
  const missingRank = ranks.length;
  const rankOf = (value: number) => (Number.isNaN(value) ? missingRank : lowerBound(ranks, value));
  const rowsPerRank = new Uint32Array(ranks.length + 2);
  const rowRanks = Uint32Array.from(values, rankOf);
  for (const rank of rowRanks) rowsPerRank[rank + 1]! += 1;
  for (let rank = 0; rank <= ranks.length; rank++) rowsPerRank[rank + 1]! += rowsPerRank[rank]!;
  const order = new Uint32Array(values.length);
  rowRanks.forEach((rank, row) => {
    order[rowsPerRank[rank]!++] = row;
  });
  return order;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function buildNameIndex(
  foldedNames: readonly string[],
  hotelCount: number,
): Pick<IndexColumns, 'vocabulary' | 'wordHotels' | 'nameWeight'> {
  // First pass: words of each name as provisional word numbers.
  const provisionalIdOf = new Map<string, number>();
  const provisionalWords: string[] = [];
  const nameWordOffsets = new Uint32Array(hotelCount + 1);
  const nameWords: number[] = [];
  foldedNames.forEach((folded, row) => {
    for (const word of new Set(splitFoldedText(folded))) {
      let id = provisionalIdOf.get(word);
      if (id === undefined) {
        id = provisionalWords.length;
        provisionalWords.push(word);
        provisionalIdOf.set(word, id);
      }
      nameWords.push(id);
    }
    nameWordOffsets[row + 1] = nameWords.length;
  });

  // Final word numbers follow the sorted vocabulary.
  const vocabulary = [...provisionalWords].sort();
  const finalIdOf = new Map(vocabulary.map((word, id) => [word, id]));
  const finalId = Uint32Array.from(provisionalWords, (word) => finalIdOf.get(word) as number);

  const documentFrequency = new Uint32Array(vocabulary.length);
  for (const provisional of nameWords) documentFrequency[finalId[provisional]!]! += 1;
  const offsets = new Uint32Array(vocabulary.length + 1);
  for (let word = 0; word < vocabulary.length; word++) offsets[word + 1] = offsets[word]! + documentFrequency[word]!;
  const items = new Uint32Array(nameWords.length);
  const cursor = offsets.slice(0, vocabulary.length);
  const nameWeight = new Float32Array(hotelCount);
  for (let row = 0; row < hotelCount; row++) {
    let weight = 0;
    for (let i = nameWordOffsets[row]!; i < nameWordOffsets[row + 1]!; i++) {
      const word = finalId[nameWords[i]!]!;
      items[cursor[word]!++] = row;
      weight += inverseDocumentFrequency(hotelCount, documentFrequency[word]!);
    }
    nameWeight[row] = weight;
  }
  return { vocabulary, wordHotels: { offsets, items }, nameWeight };
}

/** Groups dictionary values by folded form ("paris", "Paris" -> one key). */
function filterKeys(column: DictionaryColumn): FilterKeyColumns {
  const keyIdOf = new Map<string, number>();
  const keys: string[] = [];
  const keyOfValue = Uint32Array.from(column.values, (value) => {
    const key = foldText(value);
    let keyId = keyIdOf.get(key);
    if (keyId === undefined) {
      keyId = keys.length;
      keys.push(key);
      keyIdOf.set(key, keyId);
    }
    return keyId;
  });
  const keyOfRow = column.codes.map((code) => (code === MISSING_CODE ? MISSING_CODE : keyOfValue[code]!));
  return { keys, keyOfValue, hotels: buildPostingLists(keys.length, keyOfRow) };
}

function buildGeoTree(lat: Float64Array, lon: Float64Array): Pick<IndexColumns, 'geoHotels' | 'geoTree'> {
  const rows: number[] = [];
  lat.forEach((value, row) => {
    if (!Number.isNaN(value)) rows.push(row);
  });
  // KDBush needs at least one item; an empty inventory gets a tree over no real hotel.
  const tree = new KDBush(Math.max(1, rows.length));
  for (const row of rows) tree.add(lon[row]!, lat[row]!);
  if (rows.length === 0) tree.add(0, 0);
  tree.finish();
  return { geoHotels: Uint32Array.from(rows), geoTree: new Uint8Array(tree.data) };
}
