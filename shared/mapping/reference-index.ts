/**
 * The reference inventory prepared for matching: normalised columns in typed arrays, name-token
 * weights (IDF over the reference), a geographic grid and token postings for blocking, and the
 * supplier-code lookup for ID matching. Build it once, reuse it for many partner files; it
 * serialises to a Buffer (v8 structured clone keeps the typed arrays as they are).
 */
import { deserialize, serialize } from 'node:v8';
import type { ReferenceHotel } from './hotels';
import { toCountryCode } from './countries';
import { SIGNATURE_WORDS, writeTrigramSignature } from './similarity';
import { addressParts, nameParts, normalizeCity, normalizePostalCode, tokenKind, type TokenKind } from './text';

const SNAPSHOT_FORMAT = 'hotel-matching-index/3';

/** Grid cell edge in degrees of latitude (about 1.1 km); longitude cells use the same angle. */
const CELL_DEGREES = 0.01;
const LONGITUDE_CELLS = Math.round(360 / CELL_DEGREES) + 1;
const METERS_PER_DEGREE_LATITUDE = 111_195;

/** A word the reference lacks weighs like one found once in this many names. */
const UNKNOWN_WORD_RARITY = 1_000;

/** How much a word of each kind counts relative to its rarity. */
const KIND_WEIGHT: Record<TokenKind, number> = { distinctive: 1, number: 1, generic: 0.3, stop: 0.1 };

/** Everything the index holds, as plain data (what gets serialised). */
export interface ReferenceIndexSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  count: number;
  ids: string[];
  names: string[];
  /** Token id -> canonical token text. */
  vocabulary: string[];
  /** Token id -> weight (IDF times kind weight). */
  tokenWeights: Float32Array;
  /** Hotel i's name tokens are nameTokenIds[nameTokenOffsets[i] .. nameTokenOffsets[i + 1]). */
  nameTokenOffsets: Uint32Array;
  nameTokenIds: Int32Array;
  nameWeightTotals: Float32Array;
  /** Per hotel, which name tokens are a qualifier ("Gym @ Club X": club, x); see NameParts. */
  nameQualifierMasks: Uint32Array;
  /** Per hotel, how many hotels nearby carry the same name, itself included: a chain's outlets, or names such as "Playground" (see countNamesakes). */
  namesakeCounts: Uint16Array;
  /** SIGNATURE_WORDS words per hotel: trigram bits of the name's distinctive words (see nameSignatureText). */
  nameSignatures: Uint32Array;
  /** NaN when the hotel has no usable coordinates. */
  latitudes: Float64Array;
  longitudes: Float64Array;
  /** Country index -> ISO alpha-2 ("" at index 0 for unknown). */
  countryCodes: string[];
  countryOfHotel: Uint16Array;
  /** City index -> folded city name ("" at index 0 for unknown). */
  cities: string[];
  cityOfHotel: Uint32Array;
  postalCodes: string[];
  /** Street words and house numbers, space-separated ("" when unknown). */
  addressWords: string[];
  addressNumbers: string[];
  /** NaN when unknown. */
  ratings: Float32Array;
  /** Sorted grid cell keys; hotels of cellKeys[k] are cellHotels[cellOffsets[k] .. cellOffsets[k + 1]). */
  cellKeys: Int32Array;
  cellOffsets: Uint32Array;
  cellHotels: Int32Array;
  /**
   * Hotels carrying token t: postingHotels[postingOffsets[t] .. postingOffsets[t + 1]), ordered by
   * country then grid cell, so "this word, this country" and "this word, near here" are sub-ranges.
   */
  postingOffsets: Uint32Array;
  postingHotels: Int32Array;
  /** Grid cell key of each posting (-1 for hotels without coordinates). */
  postingCells: Int32Array;
  /** The same postings (same offsets per token) ordered by city instead: "this word in this city" is a sub-range. */
  cityPostingHotels: Int32Array;
  /**
   * Postcode blocks: hotels whose postcode hashes to postalHashes[k] are
   * postalHotels[postalOffsets[k] .. postalOffsets[k + 1]) (compare postalCodes to rule out collisions).
   */
  postalHashes: Int32Array;
  postalOffsets: Uint32Array;
  postalHotels: Int32Array;
  /** supplierKey(code, id) -> hotel index. */
  supplierHotels: Map<string, number>;
}

/** Lookup key of a supplier's hotel code; supplier codes compare case-insensitively. */
export function supplierKey(supplierCode: string, supplierHotelId: string): string {
  return `${supplierCode.trim().toUpperCase()}\u0000${supplierHotelId.trim()}`;
}

export function hasUsableCoordinates(lat: number | undefined, lon: number | undefined): boolean {
  return (
    lat !== undefined && lon !== undefined && Number.isFinite(lat) && Number.isFinite(lon) &&
    Math.abs(lat) <= 90 && Math.abs(lon) <= 180 &&
    // (0, 0) is how many systems write "unknown".
    !(lat === 0 && lon === 0)
  );
}

function cellKey(latitudeCell: number, longitudeCell: number): number {
  return latitudeCell * LONGITUDE_CELLS + longitudeCell;
}

function latitudeCell(lat: number): number {
  return Math.floor((lat + 90) / CELL_DEGREES);
}

function longitudeCell(lon: number): number {
  return Math.floor((lon + 180) / CELL_DEGREES);
}

/** IDF: how informative a word is, given how many of `count` names carry it. */
function inverseDocumentFrequency(count: number, documentFrequency: number): number {
  return Math.log(1 + count / Math.max(1, documentFrequency));
}

export class MatchingIndex {
  readonly size: number;
  private readonly tokenIds: Map<string, number>;
  private readonly cityIds: Map<string, number>;
  private readonly countryIds: Map<string, number>;
  private readonly scratchRange = new Uint32Array(2);
  private readonly scratchRows = new Int32Array(2 * MAX_CELL_ROWS);

  constructor(readonly data: ReferenceIndexSnapshot) {
    this.size = data.count;
    this.tokenIds = new Map(data.vocabulary.map((token, id) => [token, id]));
    this.cityIds = new Map(data.cities.map((city, id) => [city, id]));
    this.countryIds = new Map(data.countryCodes.map((code, id) => [code, id]));
  }

  /** Token id, or -1 for a word no reference name contains. */
  tokenId(token: string): number {
    return this.tokenIds.get(token) ?? -1;
  }

  /**
   * Weight of a token. A word unknown to the reference is most often a misspelling or an extra
   * word: it counts like a fairly rare word, not like the rarest one.
   */
  tokenWeight(token: string, id: number): number {
    if (id >= 0) return this.data.tokenWeights[id]!;
    return inverseDocumentFrequency(Math.min(this.size, UNKNOWN_WORD_RARITY), 1) * KIND_WEIGHT[tokenKind(token)];
  }

  /** City index, 0 when unknown or absent from the reference. */
  cityId(normalizedCity: string): number {
    return this.cityIds.get(normalizedCity) ?? 0;
  }

  /** Country index, 0 when unknown or absent from the reference. */
  countryId(countryCode: string | undefined): number {
    return countryCode === undefined ? 0 : (this.countryIds.get(countryCode) ?? 0);
  }

  hotelBySupplierCode(supplierCode: string, supplierHotelId: string): number {
    return this.data.supplierHotels.get(supplierKey(supplierCode, supplierHotelId)) ?? -1;
  }

  /** Calls `visit` for every hotel in grid cells that may lie within `radiusMeters` of the point. */
  visitNearby(lat: number, lon: number, radiusMeters: number, visit: (hotel: number) => void): void {
    const { cellHotels } = this.data;
    const ranges = new Uint32Array(2 * MAX_CELL_ROWS);
    const count = this.cellRangesNearby(lat, lon, radiusMeters, ranges);
    for (let r = 0; r < count; r++) for (let k = ranges[r * 2]!; k < ranges[r * 2 + 1]!; k++) visit(cellHotels[k]!);
  }

  /**
   * Writes the [start, end) ranges of cellHotels in grid cells that may lie within `radiusMeters`
   * of the point into `ranges` (pairs); returns the number of ranges. No callbacks, no allocation.
   */
  cellRangesNearby(lat: number, lon: number, radiusMeters: number, ranges: Uint32Array): number {
    const { cellKeys, cellOffsets } = this.data;
    const rows = cellRows(lat, lon, radiusMeters, this.scratchRows);
    let count = 0;
    for (let row = 0; row < rows && count * 2 + 1 < ranges.length; row++) {
      const from = lowerBound(cellKeys, this.scratchRows[row * 2]!, 0, cellKeys.length);
      const to = lowerBound(cellKeys, this.scratchRows[row * 2 + 1]! + 1, from, cellKeys.length);
      if (to === from) continue;
      ranges[count * 2] = cellOffsets[from]!;
      ranges[count * 2 + 1] = cellOffsets[to]!;
      count += 1;
    }
    return count;
  }

  /**
   * Writes the [start, end) ranges of postingHotels holding `tokenId` in the given country within
   * grid cells that may lie within `radiusMeters` of the point into `ranges`; returns their number.
   */
  postingRangesNearby(tokenId: number, countryId: number, lat: number, lon: number, radiusMeters: number, ranges: Uint32Array): number {
    const { postingCells } = this.data;
    this.postingRange(tokenId, countryId, this.scratchRange);
    const start = this.scratchRange[0]!;
    const end = this.scratchRange[1]!;
    const rows = cellRows(lat, lon, radiusMeters, this.scratchRows);
    let count = 0;
    for (let row = 0; row < rows && count * 2 + 1 < ranges.length; row++) {
      const from = lowerBound(postingCells, this.scratchRows[row * 2]!, start, end);
      const to = lowerBound(postingCells, this.scratchRows[row * 2 + 1]! + 1, from, end);
      if (to === from) continue;
      ranges[count * 2] = from;
      ranges[count * 2 + 1] = to;
      count += 1;
    }
    return count;
  }

  /** Country of some hotel in the point's grid cell (0 when the cell is empty): where a pin is. */
  countryAt(lat: number, lon: number): number {
    const { cellKeys, cellOffsets, cellHotels, countryOfHotel } = this.data;
    const key = cellKey(latitudeCell(lat), longitudeCell(lon));
    const position = lowerBound(cellKeys, key, 0, cellKeys.length);
    return cellKeys[position] === key ? countryOfHotel[cellHotels[cellOffsets[position]!]!]! : 0;
  }

  /** Start and end (exclusive) in cityPostingHotels of the hotels carrying `tokenId` in city `cityId`. */
  cityPostingRange(tokenId: number, cityId: number, range: Uint32Array): void {
    const { postingOffsets, cityPostingHotels, cityOfHotel } = this.data;
    let low = postingOffsets[tokenId]!;
    let high = postingOffsets[tokenId + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cityOfHotel[cityPostingHotels[middle]!]! < cityId) low = middle + 1;
      else high = middle;
    }
    const start = low;
    high = postingOffsets[tokenId + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cityOfHotel[cityPostingHotels[middle]!]! <= cityId) low = middle + 1;
      else high = middle;
    }
    range[0] = start;
    range[1] = low;
  }

  /** Start and end (exclusive) in postalHotels of the hotels whose postcode may be `postalCode` (check it). */
  postalRange(postalCode: string, range: Uint32Array): void {
    const { postalHashes, postalOffsets } = this.data;
    const position = lowerBound(postalHashes, hashText(postalCode), 0, postalHashes.length);
    if (position < postalHashes.length && postalHashes[position] === hashText(postalCode)) {
      range[0] = postalOffsets[position]!;
      range[1] = postalOffsets[position + 1]!;
    } else {
      range[0] = 0;
      range[1] = 0;
    }
  }

  /**
   * Start and end (exclusive) in postingHotels of the hotels carrying `tokenId`, restricted to
   * one country when countryId > 0. Written into `range` to avoid allocating.
   */
  postingRange(tokenId: number, countryId: number, range: Uint32Array): void {
    const { postingOffsets, postingHotels, countryOfHotel } = this.data;
    let start = postingOffsets[tokenId]!;
    let end = postingOffsets[tokenId + 1]!;
    if (countryId > 0) {
      let low = start;
      let high = end;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (countryOfHotel[postingHotels[middle]!]! < countryId) low = middle + 1;
        else high = middle;
      }
      start = low;
      high = end;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (countryOfHotel[postingHotels[middle]!]! <= countryId) low = middle + 1;
        else high = middle;
      }
      end = low;
    }
    range[0] = start;
    range[1] = end;
  }
}

/** First position in sorted[from, to) whose value is >= value. */
function lowerBound(sorted: Int32Array | Float64Array, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Most rows of grid cells one nearby search covers (about 30 km north to south). */
const MAX_CELL_ROWS = 64;

/** Writes (firstKey, lastKey) per row of grid cells covering a square of `radiusMeters` around the point; returns the row count. */
function cellRows(lat: number, lon: number, radiusMeters: number, rows: Int32Array): number {
  // The cells the square [lat ± r, lon ± r] overlaps, not a fixed span around the centre cell:
  // a 500 m search touches 2 x 2 cells of 1.1 km, not 3 x 3.
  const latitudeDelta = radiusMeters / METERS_PER_DEGREE_LATITUDE;
  const cosine = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const longitudeDelta = Math.min(180, latitudeDelta / cosine);
  const firstRow = latitudeCell(Math.max(-90, lat - latitudeDelta));
  const lastRow = Math.min(latitudeCell(Math.min(90, lat + latitudeDelta)), firstRow + (MAX_CELL_ROWS >> 1) - 1);
  const firstColumn = longitudeCell(lon - longitudeDelta);
  const lastColumn = longitudeCell(lon + longitudeDelta);
  let count = 0;
  for (let row = firstRow; row <= lastRow; row++) {
    // Columns wrap around the antimeridian; keys of one row stay consecutive within [0, LONGITUDE_CELLS).
    rows[count * 2] = cellKey(row, Math.max(0, firstColumn));
    rows[count * 2 + 1] = cellKey(row, Math.min(LONGITUDE_CELLS - 1, lastColumn));
    count += 1;
  }
  return count;
}

/** 32-bit FNV-1a hash of a string. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** Interns strings to small integer ids, id 0 reserved for "" (unknown). */
class Interner {
  readonly values: string[] = [''];
  private readonly ids = new Map<string, number>([['', 0]]);
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}

/** The MATCHING index the mapping engine blocks and scores against; the reference search has its own (`buildSearchIndex`). */
export function buildMatchingIndex(hotels: Iterable<ReferenceHotel>): MatchingIndex {
  const ids: string[] = [];
  const names: string[] = [];
  const signatureTexts: string[] = [];
  const nameTokenOffsets: number[] = [0];
  const nameTokenIds: number[] = [];
  const nameQualifierMasks: number[] = [];
  const vocabulary: string[] = [];
  const tokenIdByText = new Map<string, number>();
  const documentFrequency: number[] = [];
  const latitudes: number[] = [];
  const longitudes: number[] = [];
  const countries = new Interner();
  const countryOfHotel: number[] = [];
  const cities = new Interner();
  const cityOfHotel: number[] = [];
  const postalCodes: string[] = [];
  const addressWords: string[] = [];
  const addressNumbers: string[] = [];
  const ratings: number[] = [];
  const supplierHotels = new Map<string, number>();

  for (const hotel of hotels) {
    const index = ids.length;
    ids.push(hotel.id);
    names.push(hotel.name);
    const { tokens, qualifierMask } = nameParts(hotel.name);
    nameQualifierMasks.push(qualifierMask);
    for (const token of tokens) {
      let id = tokenIdByText.get(token);
      if (id === undefined) {
        id = vocabulary.length;
        vocabulary.push(token);
        tokenIdByText.set(token, id);
        documentFrequency.push(0);
      }
      documentFrequency[id]! += 1;
      nameTokenIds.push(id);
    }
    nameTokenOffsets.push(nameTokenIds.length);
    signatureTexts.push(nameSignatureText(tokens));
    const located = hasUsableCoordinates(hotel.lat, hotel.lon);
    latitudes.push(located ? hotel.lat! : Number.NaN);
    longitudes.push(located ? hotel.lon! : Number.NaN);
    countryOfHotel.push(countries.id(toCountryCode(hotel.countryCode) ?? toCountryCode(hotel.country) ?? ''));
    cityOfHotel.push(cities.id(normalizeCity(hotel.city)));
    postalCodes.push(normalizePostalCode(hotel.postalCode));
    const address = addressParts(hotel.address ?? '');
    addressWords.push(address.words.join(' '));
    addressNumbers.push(address.numbers.join(' '));
    ratings.push(hotel.rating ?? Number.NaN);
    for (const [supplierCode, supplierHotelId] of Object.entries(hotel.supplierCodes)) {
      supplierHotels.set(supplierKey(supplierCode, supplierHotelId), index);
    }
  }

  const count = ids.length;
  const tokenWeights = Float32Array.from(vocabulary, (token, id) =>
    inverseDocumentFrequency(count, documentFrequency[id]!) * KIND_WEIGHT[tokenKind(token)],
  );

  // Hotels are renumbered by (country, grid cell) so that the hotels one search visits (a
  // neighbourhood, a city) sit side by side in every per-hotel array: far fewer cache misses.
  const inputCells = new Int32Array(count);
  for (let hotel = 0; hotel < count; hotel++) {
    inputCells[hotel] = Number.isNaN(latitudes[hotel]!) ? -1 : cellKey(latitudeCell(latitudes[hotel]!), longitudeCell(longitudes[hotel]!));
  }
  const order = sortHotels(count, (hotel) => countryOfHotel[hotel]! * 2 ** 30 + inputCells[hotel]! + 1);
  const newIndex = new Int32Array(count);
  for (let position = 0; position < count; position++) newIndex[order[position]!] = position;
  for (const [key, hotel] of supplierHotels) supplierHotels.set(key, newIndex[hotel]!);
  const permute = <T>(values: readonly T[]): T[] => Array.from(order, (hotel) => values[hotel]!);

  const offsets = new Uint32Array(count + 1);
  const tokenIdArray = new Int32Array(nameTokenIds.length);
  const nameWeightTotals = new Float32Array(count);
  const nameSignatures = new Uint32Array(count * SIGNATURE_WORDS);
  for (let position = 0, written = 0; position < count; position++) {
    const hotel = order[position]!;
    let total = 0;
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) {
      tokenIdArray[written++] = nameTokenIds[k]!;
      total += tokenWeights[nameTokenIds[k]!]!;
    }
    offsets[position + 1] = written;
    nameWeightTotals[position] = total;
    writeTrigramSignature(signatureTexts[hotel]!, nameSignatures, position * SIGNATURE_WORDS);
  }

  const latitudeArray = Float64Array.from(order, (hotel) => latitudes[hotel]!);
  const longitudeArray = Float64Array.from(order, (hotel) => longitudes[hotel]!);
  const countryArray = Uint16Array.from(order, (hotel) => countryOfHotel[hotel]!);
  const cityArray = Uint32Array.from(order, (hotel) => cityOfHotel[hotel]!);
  const postalArray = permute(postalCodes);
  const { hotelCells, ...grid } = buildGrid(latitudeArray, longitudeArray);
  return new MatchingIndex({
    format: SNAPSHOT_FORMAT,
    count,
    ids: permute(ids),
    names: permute(names),
    vocabulary,
    tokenWeights,
    nameTokenOffsets: offsets,
    nameTokenIds: tokenIdArray,
    nameWeightTotals,
    nameQualifierMasks: Uint32Array.from(order, (hotel) => nameQualifierMasks[hotel]!),
    namesakeCounts: countNamesakes(offsets, tokenIdArray, vocabulary, countryArray, latitudeArray, longitudeArray),
    nameSignatures,
    latitudes: latitudeArray,
    longitudes: longitudeArray,
    countryCodes: countries.values,
    countryOfHotel: countryArray,
    cities: cities.values,
    cityOfHotel: cityArray,
    postalCodes: postalArray,
    addressWords: permute(addressWords),
    addressNumbers: permute(addressNumbers),
    ratings: Float32Array.from(order, (hotel) => ratings[hotel]!),
    ...grid,
    ...buildPostings(vocabulary.length, offsets, tokenIdArray, countryArray, cityArray, hotelCells),
    ...buildPostalBlocks(postalArray),
    supplierHotels,
  });
}

/** Edge of the areas, in grid cells, in which countNamesakes counts namesakes (0.1°, about 11 km). */
const NAMESAKE_AREA_CELLS = 10;
const NAMESAKE_AREA_COLUMNS = Math.ceil(LONGITUDE_CELLS / NAMESAKE_AREA_CELLS);
const NAMESAKE_AREAS = Math.ceil(Math.round(180 / CELL_DEGREES) / NAMESAKE_AREA_CELLS + 1) * NAMESAKE_AREA_COLUMNS;

/**
 * Per hotel, how many hotels nearby (its 0.1° area and the eight around it; its country when it has
 * no coordinates) have a name of the same words, stop words aside, in any order: itself included.
 */
function countNamesakes(nameTokenOffsets: Uint32Array, nameTokenIds: Int32Array, vocabulary: readonly string[], countryOfHotel: Uint16Array, latitudes: Float64Array, longitudes: Float64Array): Uint16Array {
  const count = countryOfHotel.length;
  // Each word's share of the name hash; stop words have none. Summing makes the order not matter.
  const wordHashes = Int32Array.from(vocabulary, (token, id) => (tokenKind(token) === 'stop' ? 0 : mixBits(id + 1)));
  const nameKeys = new Float64Array(count);
  const areas = new Int32Array(count);
  const keys = new Float64Array(count);
  for (let hotel = 0; hotel < count; hotel++) {
    let hash = 0;
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) hash = (hash + wordHashes[nameTokenIds[k]!]!) | 0;
    nameKeys[hotel] = (hash >>> 2) * 2 ** 23;
    areas[hotel] = Number.isNaN(latitudes[hotel]!)
      ? NAMESAKE_AREAS + countryOfHotel[hotel]!
      : Math.floor(latitudeCell(latitudes[hotel]!) / NAMESAKE_AREA_CELLS) * NAMESAKE_AREA_COLUMNS + Math.floor(longitudeCell(longitudes[hotel]!) / NAMESAKE_AREA_CELLS);
    // 30 bits of name hash above 23 bits of area: equal keys are namesakes in one area.
    keys[hotel] = nameKeys[hotel]! + areas[hotel]!;
  }
  const sorted = keys.slice().sort();
  const counts = new Uint16Array(count);
  for (let hotel = 0; hotel < count; hotel++) {
    // All hotels of this name, whatever the area, sit in sorted[first, last).
    const first = lowerBound(sorted, nameKeys[hotel]!, 0, count);
    const last = lowerBound(sorted, nameKeys[hotel]! + 2 ** 23, first, count);
    if (last - first === 1 || areas[hotel]! >= NAMESAKE_AREAS) {
      counts[hotel] = Math.min(65_535, occurrences(sorted, keys[hotel]!, first, last));
      continue;
    }
    let namesakes = 0;
    for (let row = -1; row <= 1; row++) {
      for (let column = -1; column <= 1; column++) {
        const area = areas[hotel]! + row * NAMESAKE_AREA_COLUMNS + column;
        if (area >= 0 && area < NAMESAKE_AREAS) namesakes += occurrences(sorted, nameKeys[hotel]! + area, first, last);
      }
    }
    counts[hotel] = Math.min(65_535, namesakes);
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

/**
 * Text whose trigrams make a name's signature: its distinctive words without word breaks (so
 * "Red House" and "Redhouse" agree), leaving out "hotel"-like words that every name shares.
 */
export function nameSignatureText(tokens: readonly string[]): string {
  const distinctive = tokens.filter((token) => {
    const kind = tokenKind(token);
    return kind === 'distinctive' || kind === 'number';
  });
  return (distinctive.length > 0 ? distinctive : tokens).join('');
}

function buildGrid(latitudes: Float64Array, longitudes: Float64Array) {
  const located: number[] = [];
  const hotelCells = new Int32Array(latitudes.length).fill(-1);
  for (let hotel = 0; hotel < latitudes.length; hotel++) {
    if (Number.isNaN(latitudes[hotel]!)) continue;
    hotelCells[hotel] = cellKey(latitudeCell(latitudes[hotel]!), longitudeCell(longitudes[hotel]!));
    located.push(hotel);
  }
  const cellHotels = sortHotels(located.length, (k) => hotelCells[located[k]!]!).map((k) => located[k]!);
  const cells = runsOf(cellHotels.length, (k) => hotelCells[cellHotels[k]!]!);
  return { cellKeys: cells.keys, cellOffsets: cells.offsets, cellHotels, hotelCells };
}

/** The runs of equal keys in a sorted list of `count` items: each run's key and start, then the end. */
function runsOf(count: number, keyOf: (position: number) => number): { keys: Int32Array; offsets: Uint32Array } {
  const keys: number[] = [];
  const offsets: number[] = [];
  for (let k = 0; k < count; k++) {
    const key = keyOf(k);
    if (keys.length === 0 || keys[keys.length - 1] !== key) {
      keys.push(key);
      offsets.push(k);
    }
  }
  offsets.push(count);
  return { keys: Int32Array.from(keys), offsets: Uint32Array.from(offsets) };
}

/** Inverted index token -> hotels, each list ordered by (country, grid cell). */
function buildPostings(
  vocabularySize: number,
  nameTokenOffsets: Uint32Array,
  nameTokenIds: Int32Array,
  countryOfHotel: Uint16Array,
  cityOfHotel: Uint32Array,
  hotelCells: Int32Array,
) {
  const hotelCount = countryOfHotel.length;
  // Hotels are numbered in (country, grid cell) order already: postings come out in that order.

  const postingOffsets = new Uint32Array(vocabularySize + 1);
  for (let k = 0; k < nameTokenIds.length; k++) postingOffsets[nameTokenIds[k]! + 1]! += 1;
  for (let t = 0; t < vocabularySize; t++) postingOffsets[t + 1]! += postingOffsets[t]!;
  const cursor = postingOffsets.slice();
  const postingHotels = new Int32Array(nameTokenIds.length);
  const postingCells = new Int32Array(nameTokenIds.length);
  for (let hotel = 0; hotel < hotelCount; hotel++) {
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) {
      const position = cursor[nameTokenIds[k]!]!++;
      postingHotels[position] = hotel;
      postingCells[position] = hotelCells[hotel]!;
    }
  }
  const byCity = sortHotels(hotelCount, (hotel) => cityOfHotel[hotel]!);
  const cityCursor = postingOffsets.slice();
  const cityPostingHotels = new Int32Array(nameTokenIds.length);
  for (const hotel of byCity) {
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) cityPostingHotels[cityCursor[nameTokenIds[k]!]!++] = hotel;
  }
  return { postingOffsets, postingHotels, postingCells, cityPostingHotels };
}

/**
 * Numbers 0..count-1 ordered by a non-negative integer key below 2^46, ties by number. Up to 2^21
 * numbers, key and number are packed into one double and sorted natively (no comparator calls).
 */
function sortHotels(count: number, key: (hotel: number) => number): Int32Array {
  const ordered = new Int32Array(count);
  if (count <= 2 ** 21 && count > 0) {
    const keys = new Float64Array(count);
    let largest = 0;
    for (let hotel = 0; hotel < count; hotel++) {
      keys[hotel] = key(hotel);
      if (keys[hotel]! > largest) largest = keys[hotel]!;
    }
    if (largest < 2 ** 32) {
      for (let hotel = 0; hotel < count; hotel++) keys[hotel] = keys[hotel]! * 2 ** 21 + hotel;
      keys.sort();
      for (let k = 0; k < count; k++) ordered[k] = keys[k]! % 2 ** 21;
      return ordered;
    }
    for (let hotel = 0; hotel < count; hotel++) ordered[hotel] = hotel;
    return ordered.sort((a, b) => keys[a]! - keys[b]! || a - b);
  }
  const keys = new Float64Array(count);
  for (let hotel = 0; hotel < count; hotel++) {
    keys[hotel] = key(hotel);
    ordered[hotel] = hotel;
  }
  return ordered.sort((a, b) => keys[a]! - keys[b]! || a - b);
}

/** Postcode blocks: hotels grouped by the hash of their normalised postcode. */
function buildPostalBlocks(postalCodes: readonly string[]) {
  const hashes = new Int32Array(postalCodes.length);
  const hotels: number[] = [];
  for (let hotel = 0; hotel < postalCodes.length; hotel++) {
    if (postalCodes[hotel] === '') continue;
    hashes[hotel] = hashText(postalCodes[hotel]!);
    hotels.push(hotel);
  }
  const postalHotels = Int32Array.from(hotels).sort((a, b) => hashes[a]! - hashes[b]! || a - b);
  const blocks = runsOf(postalHotels.length, (k) => hashes[postalHotels[k]!]!);
  return { postalHashes: blocks.keys, postalOffsets: blocks.offsets, postalHotels };
}

export function serializeMatchingIndex(index: MatchingIndex): Buffer {
  return serialize(index.data);
}

export function deserializeMatchingIndex(buffer: Buffer): MatchingIndex {
  const data = deserialize(buffer) as ReferenceIndexSnapshot;
  if (data?.format !== SNAPSHOT_FORMAT) throw new Error(`not a ${SNAPSHOT_FORMAT} snapshot`);
  return new MatchingIndex(data);
}
