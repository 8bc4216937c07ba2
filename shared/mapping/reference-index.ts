/**
 * The reference inventory prepared for matching: normalised columns in typed arrays, name-token
 * weights (IDF over the reference), a geographic grid and token postings for blocking, and the
 * supplier-code lookup for ID matching. Build it once, reuse it for many partner files; it
 * serialises to a Buffer (v8 structured clone keeps the typed arrays as they are).
 */
import { deserialize, serialize } from 'node:v8';
import type { ReferenceHotel } from './hotels';
import { hashText, scatterText, type TextColumn, TextColumnBuilder, textAt, textColumnOf, textHashes, textIsEmpty, withRoom } from './columns';
import { toCountryCode } from './countries';
import { SIGNATURE_WORDS, writeTrigramSignature } from './similarity';
import { type SupplierLookup, SupplierLookupBuilder, supplierLookupHotel } from './supplier-lookup';
import { addressParts, nameParts, normalizeCity, normalizePostalCode, tokenKind, type TokenKind } from './text';

const SNAPSHOT_FORMAT = 'hotel-matching-index/4';
/** The format before the text columns and the supplier lookup (string arrays and a Map then), still read. */
const STRING_ARRAY_FORMAT = 'hotel-matching-index/3';

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
    const { supplierHotels } = this.data;
    if (!supplierHotels) throw new Error('this copy of the matching index was made without its supplier codes');
    return supplierLookupHotel(supplierHotels, supplierKey(supplierCode, supplierHotelId));
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
  const builder = new MatchingIndexBuilder();
  for (const hotel of hotels) builder.add(hotel);
  return builder.finish();
}

export interface MatchingIndexBuilderOptions {
  /**
   * false leaves the hotels' supplier codes out (STANDARD matching never reads them): the index
   * then cannot match by them, as a copy serialised without them. Kept by default.
   */
  supplierCodes?: boolean;
}

/**
 * Builds the matching index one hotel at a time (`add`), so a reader can hand hotels over as it
 * reads them and keep none; `finish` orders, weighs and groups. The same hotels in the same order
 * give the same index as buildMatchingIndex. Per-hotel columns are typed arrays from the start:
 * a million hotels make a few dozen arrays, not millions of heap numbers for the collector to trace.
 * A builder serves once: after `toPart` (its arrays are moved to another thread) or `finish` (the
 * index shares its vocabulary) it throws.
 */
export class MatchingIndexBuilder {
  private readonly keepsSupplierCodes: boolean;

  constructor({ supplierCodes = true }: MatchingIndexBuilderOptions = {}) {
    this.keepsSupplierCodes = supplierCodes;
  }

  /** What used the builder up, once something has. */
  private spentBy: 'toPart' | 'finish' | undefined;
  private count = 0;
  private readonly ids = new TextColumnBuilder();
  private readonly names = new TextColumnBuilder();
  /** Hotel i's name tokens are nameTokenIds[nameTokenOffsets[i] .. nameTokenOffsets[i + 1]) (input order). */
  private nameTokenOffsets = new Uint32Array(1024);
  private nameTokenIds = new Int32Array(4096);
  private nameQualifierMasks = new Uint32Array(1024);
  private readonly vocabulary: string[] = [];
  private readonly tokenIdByText = new Map<string, number>();
  private documentFrequency = new Uint32Array(1024);
  private nameSignatures = new Uint32Array(1024 * SIGNATURE_WORDS);
  private latitudes = new Float64Array(1024);
  private longitudes = new Float64Array(1024);
  private readonly countries = new Interner();
  private countryOfHotel = new Uint16Array(1024);
  private readonly cities = new Interner();
  private cityOfHotel = new Uint32Array(1024);
  private readonly postalCodes = new TextColumnBuilder();
  private readonly addressWords = new TextColumnBuilder();
  private readonly addressNumbers = new TextColumnBuilder();
  private ratings = new Float32Array(1024);
  /** Supplier codes as given, each entry (code, hotel id text, hotel): the lookup is built when first used. */
  private readonly supplierCodes = new Interner();
  private supplierEntryCodes = new Int32Array(1024);
  private supplierEntryHotels = new Int32Array(1024);
  private readonly supplierEntryIds = new TextColumnBuilder();

  add(hotel: ReferenceHotel): void {
    this.checkUnspent();
    const index = this.count++;
    if (index + 2 > this.nameTokenOffsets.length) this.grow(index + 2);
    this.ids.add(hotel.id);
    this.names.add(hotel.name);
    const { tokens, qualifierMask } = nameParts(hotel.name);
    this.nameQualifierMasks[index] = qualifierMask;
    let written = this.nameTokenOffsets[index]!;
    if (written + tokens.length > this.nameTokenIds.length) this.nameTokenIds = withRoom(this.nameTokenIds, written + tokens.length);
    for (const token of tokens) {
      const id = this.tokenIdOf(token);
      this.documentFrequency[id]! += 1;
      this.nameTokenIds[written++] = id;
    }
    this.nameTokenOffsets[index + 1] = written;
    writeTrigramSignature(nameSignatureText(tokens), this.nameSignatures, index * SIGNATURE_WORDS);
    const located = hasUsableCoordinates(hotel.lat, hotel.lon);
    this.latitudes[index] = located ? hotel.lat! : Number.NaN;
    this.longitudes[index] = located ? hotel.lon! : Number.NaN;
    this.countryOfHotel[index] = this.countries.id(toCountryCode(hotel.countryCode) ?? toCountryCode(hotel.country) ?? '');
    this.cityOfHotel[index] = this.cities.id(normalizeCity(hotel.city));
    this.postalCodes.add(normalizePostalCode(hotel.postalCode));
    const address = addressParts(hotel.address ?? '');
    this.addressWords.add(address.words.join(' '));
    this.addressNumbers.add(address.numbers.join(' '));
    this.ratings[index] = hotel.rating ?? Number.NaN;
    if (this.keepsSupplierCodes) this.addSupplierEntries(hotel.supplierCodes, index);
  }

  /** The token's number, a new one (document frequency 0) for a token not met before. */
  private tokenIdOf(token: string): number {
    let id = this.tokenIdByText.get(token);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.vocabulary.push(token);
      this.tokenIdByText.set(token, id);
      this.documentFrequency = withRoom(this.documentFrequency, id + 1);
    }
    return id;
  }

  private addSupplierEntries(supplierCodes: Record<string, string>, hotel: number): void {
    for (const supplierCode of Object.keys(supplierCodes)) {
      const entry = this.supplierEntryIds.count;
      if (entry + 1 > this.supplierEntryCodes.length) {
        this.supplierEntryCodes = withRoom(this.supplierEntryCodes, entry + 1);
        this.supplierEntryHotels = withRoom(this.supplierEntryHotels, entry + 1);
      }
      this.supplierEntryCodes[entry] = this.supplierCodes.id(supplierCode);
      this.supplierEntryHotels[entry] = hotel;
      this.supplierEntryIds.add(supplierCodes[supplierCode]!);
    }
  }

  private checkUnspent(): void {
    if (this.spentBy) throw new Error(`MatchingIndexBuilder: already used up by ${this.spentBy}`);
  }

  private grow(needed: number): void {
    this.nameTokenOffsets = withRoom(this.nameTokenOffsets, needed);
    this.nameQualifierMasks = withRoom(this.nameQualifierMasks, needed);
    this.nameSignatures = withRoom(this.nameSignatures, needed * SIGNATURE_WORDS);
    this.latitudes = withRoom(this.latitudes, needed);
    this.longitudes = withRoom(this.longitudes, needed);
    this.countryOfHotel = withRoom(this.countryOfHotel, needed);
    this.cityOfHotel = withRoom(this.cityOfHotel, needed);
    this.ratings = withRoom(this.ratings, needed);
  }

  /**
   * The hotels added so far as a MatchingIndexPart, for a builder on another thread to append
   * (`transfer`: the buffers to move rather than copy). The builder is spent.
   */
  toPart(): { part: MatchingIndexPart; transfer: ArrayBuffer[] } {
    this.checkUnspent();
    this.spentBy = 'toPart';
    const count = this.count;
    const part: MatchingIndexPart = {
      count,
      vocabulary: this.vocabulary,
      documentFrequency: this.documentFrequency.subarray(0, this.vocabulary.length),
      nameTokenOffsets: this.nameTokenOffsets.subarray(0, count + 1),
      nameTokenIds: this.nameTokenIds.subarray(0, this.nameTokenOffsets[count]!),
      nameQualifierMasks: this.nameQualifierMasks.subarray(0, count),
      nameSignatures: this.nameSignatures.subarray(0, count * SIGNATURE_WORDS),
      latitudes: this.latitudes.subarray(0, count),
      longitudes: this.longitudes.subarray(0, count),
      countries: this.countries.values,
      countryOfHotel: this.countryOfHotel.subarray(0, count),
      cities: this.cities.values,
      cityOfHotel: this.cityOfHotel.subarray(0, count),
      ratings: this.ratings.subarray(0, count),
      supplierCodes: this.supplierCodes.values,
      supplierEntryCodes: this.supplierEntryCodes.subarray(0, this.supplierEntryIds.count),
      supplierEntryHotels: this.supplierEntryHotels.subarray(0, this.supplierEntryIds.count),
      ids: this.ids.packed(),
      names: this.names.packed(),
      postalCodes: this.postalCodes.packed(),
      addressWords: this.addressWords.packed(),
      addressNumbers: this.addressNumbers.packed(),
      supplierEntryIds: this.supplierEntryIds.packed(),
    };
    const transfer = [
      part.documentFrequency, part.nameTokenOffsets, part.nameTokenIds, part.nameQualifierMasks, part.nameSignatures, part.latitudes,
      part.longitudes, part.countryOfHotel, part.cityOfHotel, part.ratings, part.supplierEntryCodes, part.supplierEntryHotels,
      part.ids.starts, part.names.starts, part.postalCodes.starts, part.addressWords.starts, part.addressNumbers.starts, part.supplierEntryIds.starts,
    ].map((array) => array.buffer as ArrayBuffer);
    return { part, transfer: [...new Set(transfer)] };
  }

  /**
   * Adds the hotels of a part (made by toPart on another thread from the rows after this
   * builder's): the same as adding them one by one here. Token, city, country and supplier-code
   * numbers are the part's own, renumbered here in the order the part first met them.
   */
  appendPart(part: MatchingIndexPart): void {
    this.checkUnspent();
    const base = this.count;
    this.grow(base + part.count + 2);
    this.appendNames(part, base);
    this.appendPlaces(part, base);
    this.appendSupplierEntries(part, base);
    this.ids.append(part.ids);
    this.names.append(part.names);
    this.postalCodes.append(part.postalCodes);
    this.addressWords.append(part.addressWords);
    this.addressNumbers.append(part.addressNumbers);
    this.count += part.count;
  }

  /** The part's name tokens (renumbered, their document frequencies added), qualifier masks and signatures. */
  private appendNames(part: MatchingIndexPart, base: number): void {
    const tokenIds = Int32Array.from(part.vocabulary, (token, partId) => {
      const id = this.tokenIdOf(token);
      this.documentFrequency[id]! += part.documentFrequency[partId]!;
      return id;
    });
    const tokensBefore = this.nameTokenOffsets[base]!;
    this.nameTokenIds = withRoom(this.nameTokenIds, tokensBefore + part.nameTokenIds.length);
    for (let k = 0; k < part.nameTokenIds.length; k++) this.nameTokenIds[tokensBefore + k] = tokenIds[part.nameTokenIds[k]!]!;
    for (let hotel = 0; hotel < part.count; hotel++) this.nameTokenOffsets[base + hotel + 1] = tokensBefore + part.nameTokenOffsets[hotel + 1]!;
    this.nameQualifierMasks.set(part.nameQualifierMasks, base);
    this.nameSignatures.set(part.nameSignatures, base * SIGNATURE_WORDS);
  }

  /** The part's countries and cities (renumbered), coordinates and ratings. */
  private appendPlaces(part: MatchingIndexPart, base: number): void {
    const countryIds = part.countries.map((country) => this.countries.id(country));
    const cityIds = part.cities.map((city) => this.cities.id(city));
    for (let hotel = 0; hotel < part.count; hotel++) {
      this.countryOfHotel[base + hotel] = countryIds[part.countryOfHotel[hotel]!]!;
      this.cityOfHotel[base + hotel] = cityIds[part.cityOfHotel[hotel]!]!;
    }
    this.latitudes.set(part.latitudes, base);
    this.longitudes.set(part.longitudes, base);
    this.ratings.set(part.ratings, base);
  }

  /** The part's supplier-code entries: codes renumbered, hotels moved on by `base`. */
  private appendSupplierEntries(part: MatchingIndexPart, base: number): void {
    const codeIds = part.supplierCodes.map((code) => this.supplierCodes.id(code));
    const before = this.supplierEntryIds.count;
    const entries = part.supplierEntryCodes.length;
    this.supplierEntryCodes = withRoom(this.supplierEntryCodes, before + entries);
    this.supplierEntryHotels = withRoom(this.supplierEntryHotels, before + entries);
    for (let entry = 0; entry < entries; entry++) {
      this.supplierEntryCodes[before + entry] = codeIds[part.supplierEntryCodes[entry]!]!;
      this.supplierEntryHotels[before + entry] = base + part.supplierEntryHotels[entry]!;
    }
    this.supplierEntryIds.append(part.supplierEntryIds);
  }

  /** The index of every hotel added. */
  finish(): MatchingIndex {
    const finishing = this.startFinishing();
    const assembled = finishing.assemble();
    return finishing.complete(assembled, namesakeCounts(finishing.namesakeInput));
  }

  /**
   * As finish, with the namesake counts (a fifth of finishing) computed by `countElsewhere` (on
   * another thread) while this thread does the rest; counted here if that fails (throws, rejects,
   * or gives counts not one per hotel).
   */
  async finishWith(countElsewhere: (input: NamesakeInput) => Promise<Uint16Array>): Promise<MatchingIndex> {
    const finishing = this.startFinishing();
    const counting = startCounting(countElsewhere, finishing.namesakeInput);
    const assembled = finishing.assemble();
    const counted = await counting;
    const counts = counted?.length === this.count ? counted : namesakeCounts(finishing.namesakeInput);
    return finishing.complete(assembled, counts);
  }

  /** Orders the hotels and lays out the per-hotel arrays; the rest (`assemble`, `complete`) follows. */
  private startFinishing() {
    this.checkUnspent();
    this.spentBy = 'finish';
    const { count, vocabulary, documentFrequency, nameTokenOffsets, nameTokenIds, countryOfHotel, cityOfHotel, latitudes, longitudes } = this;
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
    // Each hotel is read in input order and written where it goes: scattering costs fewer cache
    // misses than gathering every hotel from wherever it lies (for 1M hotels, three quarters of the
    // time). Text columns keep their text in input order; only their starts and ends move.
    const positionOf = new Int32Array(count);
    for (let position = 0; position < count; position++) positionOf[order[position]!] = position;
    const scattered = (values: Int32Array): Int32Array => {
      const laidOut = new Int32Array(count);
      for (let hotel = 0; hotel < count; hotel++) laidOut[positionOf[hotel]!] = values[hotel]!;
      return laidOut;
    };

    const offsets = new Uint32Array(count + 1);
    const tokenIdArray = new Int32Array(nameTokenOffsets[count]!);
    const nameWeightTotals = new Float32Array(count);
    const nameSignatures = new Uint32Array(count * SIGNATURE_WORDS);
    const latitudeArray = new Float64Array(count);
    const longitudeArray = new Float64Array(count);
    const countryArray = new Uint16Array(count);
    const cityArray = new Uint32Array(count);
    const qualifierMasks = new Uint32Array(count);
    const ratings = new Float32Array(count);
    for (let hotel = 0; hotel < count; hotel++) offsets[positionOf[hotel]! + 1] = nameTokenOffsets[hotel + 1]! - nameTokenOffsets[hotel]!;
    for (let position = 0; position < count; position++) offsets[position + 1]! += offsets[position]!;
    for (let hotel = 0; hotel < count; hotel++) {
      const position = positionOf[hotel]!;
      let total = 0;
      for (let k = nameTokenOffsets[hotel]!, written = offsets[position]!; k < nameTokenOffsets[hotel + 1]!; k++) {
        tokenIdArray[written++] = nameTokenIds[k]!;
        total += tokenWeights[nameTokenIds[k]!]!;
      }
      nameWeightTotals[position] = total;
      for (let word = 0; word < SIGNATURE_WORDS; word++) nameSignatures[position * SIGNATURE_WORDS + word] = this.nameSignatures[hotel * SIGNATURE_WORDS + word]!;
      latitudeArray[position] = latitudes[hotel]!;
      longitudeArray[position] = longitudes[hotel]!;
      countryArray[position] = countryOfHotel[hotel]!;
      cityArray[position] = cityOfHotel[hotel]!;
      qualifierMasks[position] = this.nameQualifierMasks[hotel]!;
      ratings[position] = this.ratings[hotel]!;
    }
    const namesakeInput: NamesakeInput = {
      nameTokenOffsets: offsets,
      nameTokenIds: tokenIdArray,
      wordHashes: namesakeWordHashes(vocabulary),
      countryOfHotel: countryArray,
      latitudes: latitudeArray,
      longitudes: longitudeArray,
    };

    /** Everything else but the namesake counts. */
    const assemble = () => {
      const inputPostalCodes = this.postalCodes.packed();
      const inputAddressWords = this.addressWords.packed();
      // Hashed in input order, where the values lie side by side, and scattered like the rest.
      const hashes = { postalCodes: scattered(textHashes(inputPostalCodes)), addressWords: scattered(textHashes(inputAddressWords)) };
      const postalCodes = scatterText(inputPostalCodes, positionOf);
      const { hotelCells, ...grid } = buildGrid(latitudeArray, longitudeArray);
      return {
        hashes,
        ids: scatterText(this.ids.packed(), positionOf),
        names: scatterText(this.names.packed(), positionOf),
        postalCodes,
        addressWords: scatterText(inputAddressWords, positionOf),
        addressNumbers: scatterText(this.addressNumbers.packed(), positionOf),
        grid,
        postings: buildPostings(vocabulary.length, offsets, tokenIdArray, countryArray, cityArray, hotelCells),
        postalBlocks: buildPostalBlocks(postalCodes, hashes.postalCodes),
      };
    };

    const complete = (assembled: ReturnType<typeof assemble>, namesakeCounts: Uint16Array): MatchingIndex => {
      const data: ReferenceIndexSnapshot = {
        format: SNAPSHOT_FORMAT,
        count,
        ids: assembled.ids,
        names: assembled.names,
        vocabulary,
        tokenWeights,
        nameTokenOffsets: offsets,
        nameTokenIds: tokenIdArray,
        nameWeightTotals,
        nameQualifierMasks: qualifierMasks,
        namesakeCounts,
        nameSignatures,
        latitudes: latitudeArray,
        longitudes: longitudeArray,
        countryCodes: this.countries.values,
        countryOfHotel: countryArray,
        cities: this.cities.values,
        cityOfHotel: cityArray,
        postalCodes: assembled.postalCodes,
        addressWords: assembled.addressWords,
        addressNumbers: assembled.addressNumbers,
        postalCodeHashes: assembled.hashes.postalCodes,
        addressWordsHashes: assembled.hashes.addressWords,
        ratings,
        ...assembled.grid,
        ...assembled.postings,
        ...assembled.postalBlocks,
        supplierHotels: undefined,
      };
      if (this.keepsSupplierCodes) {
        lazySupplierHotels(data, this.supplierCodes.values, this.supplierEntryCodes, this.supplierEntryIds.packed(), this.supplierEntryHotels, positionOf);
      }
      return new MatchingIndex(data);
    };

    return { namesakeInput, assemble, complete };
  }
}

/** A builder's hotels as plain data for another thread (see MatchingIndexBuilder.toPart). */
export interface MatchingIndexPart {
  count: number;
  vocabulary: string[];
  documentFrequency: Uint32Array;
  nameTokenOffsets: Uint32Array;
  nameTokenIds: Int32Array;
  nameQualifierMasks: Uint32Array;
  nameSignatures: Uint32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  countries: string[];
  countryOfHotel: Uint16Array;
  cities: string[];
  cityOfHotel: Uint32Array;
  ratings: Float32Array;
  supplierCodes: string[];
  supplierEntryCodes: Int32Array;
  supplierEntryHotels: Int32Array;
  /** Text columns as TextColumnBuilder.packed makes them (starts and ends share one buffer). */
  ids: TextColumn;
  names: TextColumn;
  postalCodes: TextColumn;
  addressWords: TextColumn;
  addressNumbers: TextColumn;
  supplierEntryIds: TextColumn;
}

/** The counts of `countElsewhere` once it has them; undefined when it fails, synchronously or not. */
function startCounting(countElsewhere: (input: NamesakeInput) => Promise<Uint16Array>, input: NamesakeInput): Promise<Uint16Array | undefined> {
  try {
    return countElsewhere(input).then(
      (counts) => counts,
      () => undefined,
    );
  } catch {
    return Promise.resolve(undefined);
  }
}

/**
 * Makes data.supplierHotels a property that builds the supplier-code lookup the first time it is
 * read (ID_TO_ID and HYBRID matching, serialising the index) and is plain data from then on:
 * STANDARD matching never pays for millions of keys. Keys come in the order the hotels and their
 * codes came, a repeated key holding the last hotel.
 */
function lazySupplierHotels(
  data: ReferenceIndexSnapshot,
  codes: readonly string[],
  entryCodes: Int32Array,
  entryIds: TextColumn,
  entryHotels: Int32Array,
  newIndex: Int32Array,
): void {
  const settle = (value: SupplierLookup) =>
    Object.defineProperty(data, 'supplierHotels', { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(data, 'supplierHotels', {
    enumerable: true,
    configurable: true,
    get() {
      const prefixes = codes.map((code) => supplierKey(code, ''));
      const lookup = new SupplierLookupBuilder(entryIds.starts.length);
      for (let entry = 0; entry < entryIds.starts.length; entry++) {
        lookup.set(prefixes[entryCodes[entry]!] + textAt(entryIds, entry).trim(), newIndex[entryHotels[entry]!]!);
      }
      const supplierHotels = lookup.finish();
      settle(supplierHotels);
      return supplierHotels;
    },
    set(value: SupplierLookup) {
      settle(value);
    },
  });
}

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
function namesakeWordHashes(vocabulary: readonly string[]): Int32Array {
  return Int32Array.from(vocabulary, (token, id) => (tokenKind(token) === 'stop' ? 0 : mixBits(id + 1)));
}

/**
 * Per hotel, how many hotels nearby (its 0.1° area and the eight around it; its country when it has
 * no coordinates) have a name of the same words, stop words aside, in any order: itself included.
 */
export function namesakeCounts({ nameTokenOffsets, nameTokenIds, wordHashes, countryOfHotel, latitudes, longitudes }: NamesakeInput): Uint16Array {
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
      : Math.floor(latitudeCell(latitudes[hotel]!) / NAMESAKE_AREA_CELLS) * NAMESAKE_AREA_COLUMNS + Math.floor(longitudeCell(longitudes[hotel]!) / NAMESAKE_AREA_CELLS);
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
  for (let k = 0; k < count; ) {
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
    if (largest < 2 ** 46) {
      // The low 32 bits of the key with the number, sorted natively, then a stable counting sort
      // by the high bits: the same order as sorting by (key, number).
      const packed = new Float64Array(count);
      for (let hotel = 0; hotel < count; hotel++) packed[hotel] = (keys[hotel]! % 2 ** 32) * 2 ** 21 + hotel;
      packed.sort();
      const starts = new Uint32Array(Math.floor(largest / 2 ** 32) + 2);
      for (let hotel = 0; hotel < count; hotel++) starts[Math.floor(keys[hotel]! / 2 ** 32) + 1]! += 1;
      for (let high = 1; high < starts.length; high++) starts[high]! += starts[high - 1]!;
      for (let k = 0; k < count; k++) {
        const hotel = packed[k]! % 2 ** 21;
        ordered[starts[Math.floor(keys[hotel]! / 2 ** 32)]!++] = hotel;
      }
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

/** Postcode blocks: hotels grouped by the hash of their normalised postcode (`hashes`: hashText of each). */
function buildPostalBlocks(postalCodes: TextColumn, hashes: Int32Array) {
  const count = hashes.length;
  let coded = 0;
  for (let hotel = 0; hotel < count; hotel++) if (!textIsEmpty(postalCodes, hotel)) coded += 1;
  // Hotels with a postcode by (hash, hotel): up to 2^21 hotels, the hash (moved up by 2^31 to be
  // non-negative, which keeps its order) and the hotel packed in one double and sorted natively.
  const postalHotels = new Int32Array(coded);
  if (count <= 2 ** 21) {
    const packed = new Float64Array(coded);
    for (let hotel = 0, k = 0; hotel < count; hotel++) if (!textIsEmpty(postalCodes, hotel)) packed[k++] = (hashes[hotel]! + 2 ** 31) * 2 ** 21 + hotel;
    packed.sort();
    for (let k = 0; k < coded; k++) postalHotels[k] = packed[k]! % 2 ** 21;
  } else {
    for (let hotel = 0, k = 0; hotel < count; hotel++) if (!textIsEmpty(postalCodes, hotel)) postalHotels[k++] = hotel;
    postalHotels.sort((a, b) => hashes[a]! - hashes[b]! || a - b);
  }
  const blocks = runsOf(postalHotels.length, (k) => hashes[postalHotels[k]!]!);
  return { postalHashes: blocks.keys, postalOffsets: blocks.offsets, postalHotels };
}

/**
 * The index as bytes, to store or to hand to another thread. Without `supplierCodes` the copy
 * leaves out the supplier-code lookup (STANDARD matching never reads it; when it has not been
 * built yet, building it costs more than serialising everything else).
 */
export function serializeMatchingIndex(index: MatchingIndex, { supplierCodes = true }: { supplierCodes?: boolean } = {}): Buffer {
  return serialize(dataToCopy(index, supplierCodes));
}

/**
 * The index's data for worker threads (postMessage, workerData): its typed arrays moved into
 * shared memory, so that every thread reads the one copy made here (strings are still copied,
 * about a hundred bytes per hotel). `new MatchingIndex(data)` on the worker takes it as it comes.
 * Without `supplierCodes` the supplier-code lookup is left out, as serializeMatchingIndex leaves it.
 */
export function shareMatchingIndex(index: MatchingIndex, { supplierCodes = true }: { supplierCodes?: boolean } = {}): ReferenceIndexSnapshot {
  return inSharedMemory(dataToCopy(index, supplierCodes)) as ReferenceIndexSnapshot;
}

/** The index's data, or without `supplierCodes` the same data with the supplier lookup left out (and not built). */
function dataToCopy(index: MatchingIndex, supplierCodes: boolean): ReferenceIndexSnapshot {
  if (supplierCodes) return index.data;
  const data: Record<string, unknown> = { supplierHotels: undefined };
  // Property by property: reading supplierHotels would build the lookup.
  for (const key of Object.keys(index.data)) if (key !== 'supplierHotels') data[key] = index.data[key as keyof ReferenceIndexSnapshot];
  return data as unknown as ReferenceIndexSnapshot;
}

type TypedArray = Exclude<ArrayBufferView, DataView>;

/** Typed arrays copied into shared memory, inside plain objects too (a TextColumn, the supplier lookup); anything else as it is. */
function inSharedMemory(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const array = value as TypedArray;
    if (array.buffer instanceof SharedArrayBuffer) return array;
    const Type = array.constructor as new (buffer: SharedArrayBuffer) => TypedArray & { set(source: TypedArray): void };
    const shared = new Type(new SharedArrayBuffer(array.byteLength));
    shared.set(array);
    return shared;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, inSharedMemory(field)]));
  }
  return value;
}

export function deserializeMatchingIndex(buffer: Uint8Array): MatchingIndex {
  const data = deserialize(buffer) as ReferenceIndexSnapshot;
  if ((data?.format as string) === STRING_ARRAY_FORMAT) return new MatchingIndex(withTextColumns(data));
  if (data?.format !== SNAPSHOT_FORMAT) throw new Error(`not a ${SNAPSHOT_FORMAT} snapshot`);
  return new MatchingIndex(data);
}

/**
 * A snapshot stored before the text columns (a publication made by an earlier release), as it is
 * now: string arrays become text columns, the supplier-code Map a SupplierLookup.
 */
function withTextColumns(data: ReferenceIndexSnapshot): ReferenceIndexSnapshot {
  const older = data as unknown as Record<'ids' | 'names' | 'postalCodes' | 'addressWords' | 'addressNumbers', string[]> & {
    supplierHotels: Map<string, number> | undefined;
  };
  const postalCodes = textColumnOf(older.postalCodes);
  const addressWords = textColumnOf(older.addressWords);
  let supplierHotels: SupplierLookup | undefined;
  if (older.supplierHotels) {
    const lookup = new SupplierLookupBuilder(older.supplierHotels.size);
    for (const [key, hotel] of older.supplierHotels) lookup.set(key, hotel);
    supplierHotels = lookup.finish();
  }
  return {
    ...data,
    format: SNAPSHOT_FORMAT,
    supplierHotels,
    ids: textColumnOf(older.ids),
    names: textColumnOf(older.names),
    postalCodes,
    addressWords,
    addressNumbers: textColumnOf(older.addressNumbers),
    postalCodeHashes: textHashes(postalCodes),
    addressWordsHashes: textHashes(addressWords),
  };
}
