/**
 * The reference inventory prepared for matching, the read side: normalised columns in typed
 * arrays, name-token weights (IDF over the reference), a geographic grid and token postings for
 * blocking, postcode blocks, and the supplier-code lookup for ID matching, with the lookups the
 * matcher makes on them. matching-index-builder.ts makes one; matching-index-snapshot.ts stores it
 * and matching-index-sharing.ts hands it to other threads.
 */
import type { TextColumn } from './columns';
import { hashText } from './columns';
import {
  type SupplierCodesByHotel,
  type SupplierLookup,
  supplierCodesByHotel,
  supplierCodesOf,
  supplierLookupHotel,
} from './supplier-lookup';
import { tokenKind, type TokenKind } from './text';

export const SNAPSHOT_FORMAT = 'hotel-matching-index/4';

/** Grid cell edge in degrees of latitude (about 1.1 km); longitude cells use the same angle. */
export const CELL_DEGREES = 0.01;
export const LONGITUDE_CELLS = Math.round(360 / CELL_DEGREES) + 1;
const METERS_PER_DEGREE_LATITUDE = 111_195;

/** A word the reference lacks weighs like one found once in this many names. */
export const UNKNOWN_WORD_RARITY = 1_000;

/** How much a word of each kind counts relative to its rarity. */
export const KIND_WEIGHT: Record<TokenKind, number> = { distinctive: 1, number: 1, generic: 0.3, stop: 0.1 };

/** Everything the index holds, as plain data (what gets serialised). */
export interface ReferenceIndexSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  count: number;
  ids: TextColumn;
  names: TextColumn;
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
  /** Per hotel, how many hotels nearby carry the same name, itself included: a chain's outlets, or names such as "Playground" (see namesakeCounts). */
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
  /** City index -> the city as the reference spells it; absent from snapshots made before it was kept. */
  cityNames?: string[];
  cityOfHotel: Uint32Array;
  postalCodes: TextColumn;
  /** Street words and house numbers, space-separated ("" when unknown). */
  addressWords: TextColumn;
  addressNumbers: TextColumn;
  /** Per hotel, hashText of its postcode and of its street words: compared before the text. */
  postalCodeHashes: Int32Array;
  addressWordsHashes: Int32Array;
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
  /**
   * supplierKey(code, id) -> hotel index; undefined in an index built or copied without it (see
   * MatchingIndexBuilder, serializeMatchingIndex), which then cannot match by supplier codes.
   */
  supplierHotels: SupplierLookup | undefined;
}

/** Lookup key of a supplier's hotel code; supplier codes compare case-insensitively. */
export function supplierKey(supplierCode: string, supplierHotelId: string): string {
  return `${supplierCode.trim().toUpperCase()}\u0000${supplierHotelId.trim()}`;
}

export function hasUsableCoordinates(lat: number | undefined, lon: number | undefined): boolean {
  return (
    lat !== undefined &&
    lon !== undefined &&
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180 &&
    // (0, 0) is how many systems write "unknown".
    !(lat === 0 && lon === 0)
  );
}

export function cellKey(latitudeCell: number, longitudeCell: number): number {
  return latitudeCell * LONGITUDE_CELLS + longitudeCell;
}

export function latitudeCell(lat: number): number {
  return Math.floor((lat + 90) / CELL_DEGREES);
}

export function longitudeCell(lon: number): number {
  return Math.floor((lon + 180) / CELL_DEGREES);
}

/** IDF: how informative a word is, given how many of `count` names carry it. */
export function inverseDocumentFrequency(count: number, documentFrequency: number): number {
  return Math.log(1 + count / Math.max(1, documentFrequency));
}

export class MatchingIndex {
  readonly size: number;
  private readonly tokenIds: Map<string, number>;
  private readonly cityIds: Map<string, number>;
  private readonly countryIds: Map<string, number>;
  private readonly scratchRange = new Uint32Array(2);
  private readonly scratchRows = new Int32Array(2 * MAX_CELL_ROWS);
  private codesByHotel: SupplierCodesByHotel | undefined;

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
    const { supplierHotels } = this.data;
    if (!supplierHotels) throw new Error('this copy of the matching index was made without its supplier codes');
    return supplierLookupHotel(supplierHotels, supplierKey(supplierCode, supplierHotelId));
  }

  /** Where the hotel is, as the reference gives it: its city's spelling and its country's ISO code (undefined when unknown). */
  placeOf(hotel: number): { city?: string; countryCode?: string } {
    const { cities, cityNames, cityOfHotel, countryCodes, countryOfHotel } = this.data;
    const city = (cityNames ?? cities)[cityOfHotel[hotel]!] || undefined;
    const countryCode = countryCodes[countryOfHotel[hotel]!] || undefined;
    return { ...(city && { city }), ...(countryCode && { countryCode }) };
  }

  /**
   * The hotel's codes at each supplier (supplier code -> that supplier's hotel id), as the
   * supplier-code lookup holds them; none in a copy made without the lookup.
   */
  supplierCodesOf(hotel: number): Record<string, string> {
    const { supplierHotels } = this.data;
    if (!supplierHotels) return {};
    this.codesByHotel ??= supplierCodesByHotel(supplierHotels, this.size);
    return supplierCodesOf(supplierHotels, this.codesByHotel, hotel);
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
export function lowerBound(sorted: Int32Array | Float64Array, value: number, from: number, to: number): number {
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
