/**
 * Builds the in-memory search index from reference hotels. Hotels to exclude (e.g. duplicates
 * merged away) are excluded by filtering the iterable before building: the index holds exactly
 * the hotels it is given.
 */
import KDBush from 'kdbush';
import type { ReferenceHotel } from '../domain/hotels';
import {
  DictionaryEncoder,
  MISSING_CODE,
  buildPostingLists,
  encodeStringColumn,
  type DictionaryColumn,
} from './columns';
import {
  INDEX_FORMAT_VERSION,
  hydrateIndex,
  inverseDocumentFrequency,
  type FilterKeyColumns,
  type IndexColumns,
  type ReferenceSearchIndex,
} from './index-model';
import { distinctTokens, foldText } from './text';

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

export function buildReferenceIndex(hotels: Iterable<ReferenceHotel>): ReferenceSearchIndex {
  return hydrateIndex(buildIndexColumns(hotels));
}

export function buildIndexColumns(hotels: Iterable<ReferenceHotel>): IndexColumns {
  const collected = collect(hotels);
  const nameOrder = sortByName(collected);
  const hotelCount = nameOrder.length;
  const inNameOrder = <T>(values: readonly T[]): T[] => Array.from(nameOrder, (input) => values[input] as T);

  const country = dictionaryColumn(collected.country, inNameOrder(collected.countryCodes));
  const city = dictionaryColumn(collected.city, inNameOrder(collected.cityCodes));
  const region = dictionaryColumn(collected.region, inNameOrder(collected.regionCodes));
  const lat = Float64Array.from(inNameOrder(collected.lat));
  const lon = Float64Array.from(inNameOrder(collected.lon));
  const rating = Float64Array.from(inNameOrder(collected.rating));
  const createdAt = Float64Array.from(inNameOrder(collected.createdAt));
  const names = inNameOrder(collected.names);
  const nameIndex = buildNameIndex(names, hotelCount);
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
    ids: [], names: [], foldedNames: [],
    country: new DictionaryEncoder(), countryCodes: [], countryIsoCodes: new Map(),
    city: new DictionaryEncoder(), cityCodes: [],
    region: new DictionaryEncoder(), regionCodes: [],
    lat: [], lon: [], rating: [], createdAt: [],
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

/** Input positions sorted by folded name, then name, then id: the index's row order. */
function sortByName({ foldedNames, names, ids }: CollectedHotels): Uint32Array {
  const order = Array.from(foldedNames, (_, i) => i);
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  order.sort(
    (a, b) =>
      compare(foldedNames[a] as string, foldedNames[b] as string) ||
      compare(names[a] as string, names[b] as string) ||
      compare(ids[a] as string, ids[b] as string),
  );
  return Uint32Array.from(order);
}

function dictionaryColumn(encoder: DictionaryEncoder, codes: number[]): DictionaryColumn {
  return { values: encoder.values, codes: Uint32Array.from(codes) };
}

/** Rows ascending by value then row (= name), rows without a value (NaN) last. */
function orderByValue(values: Float64Array): Uint32Array {
  const rows = Array.from(values, (_, row) => row);
  rows.sort((a, b) => {
    const valueA = values[a] as number;
    const valueB = values[b] as number;
    if (Number.isNaN(valueA) || Number.isNaN(valueB)) return Number.isNaN(valueA) ? (Number.isNaN(valueB) ? a - b : 1) : -1;
    return valueA - valueB || a - b;
  });
  return Uint32Array.from(rows);
}

function buildNameIndex(
  names: readonly string[],
  hotelCount: number,
): Pick<IndexColumns, 'vocabulary' | 'wordHotels' | 'nameWeight'> {
  // First pass: words of each name as provisional word numbers.
  const provisionalIdOf = new Map<string, number>();
  const provisionalWords: string[] = [];
  const nameWordOffsets = new Uint32Array(hotelCount + 1);
  const nameWords: number[] = [];
  names.forEach((name, row) => {
    for (const word of distinctTokens(name)) {
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
    const key = foldText(value).trim();
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
