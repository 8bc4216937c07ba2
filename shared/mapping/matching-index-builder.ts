/**
 * Building the matching index: hotels taken one at a time as a file is read (MatchingIndexBuilder,
 * no hotel record kept), two builders' halves joined (toPart / appendPart, the command line's two
 * threads), then laid out by (country, grid cell) with its grid, word postings, postcode blocks
 * and namesake counts (finish).
 */
import type { ReferenceHotel } from './hotels';
import { scatterText, type TextColumn, TextColumnBuilder, textAt, textHashes, textIsEmpty, withRoom } from './columns';
import { toCountryCode } from './countries';
import {
  cellKey,
  hasUsableCoordinates,
  inverseDocumentFrequency,
  KIND_WEIGHT,
  latitudeCell,
  longitudeCell,
  MatchingIndex,
  SNAPSHOT_FORMAT,
  supplierKey,
  type ReferenceIndexSnapshot,
} from './matching-index';
import { type NamesakeInput, namesakeCounts, namesakeWordHashes } from './namesakes';
import { nameSignatureText, SIGNATURE_WORDS, writeTrigramSignature } from './similarity';
import { type SupplierLookup, SupplierLookupBuilder } from './supplier-lookup';
import { addressParts, nameParts, normalizeCity, normalizePostalCode, tokenKind } from './text';

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

/**
 * Builds the matching index one hotel at a time (`add`), so a reader can hand hotels over as it
 * reads them and keep none; `finish` orders, weighs and groups. The same hotels in the same order
 * give the same index as buildMatchingIndex. Per-hotel columns are typed arrays from the start:
 * a million hotels make a few dozen arrays, not millions of heap numbers for the collector to trace.
 * A builder serves once: after `toPart` (its arrays are moved to another thread) or `finish` (the
 * index shares its vocabulary) it throws.
 */
export class MatchingIndexBuilder {
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
  /** City id -> the city as the first hotel of that city spelled it. */
  private readonly cityNames: string[] = [''];
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
    this.cityOfHotel[index] = this.cityIdOf(normalizeCity(hotel.city), hotel.city);
    this.postalCodes.add(normalizePostalCode(hotel.postalCode));
    const address = addressParts(hotel.address ?? '');
    this.addressWords.add(address.words.join(' '));
    this.addressNumbers.add(address.numbers.join(' '));
    this.ratings[index] = hotel.rating ?? Number.NaN;
    this.addSupplierEntries(hotel.supplierCodes, index);
  }

  /** The folded city's number, its spelling kept for a city not met before. */
  private cityIdOf(folded: string, spelled: string | undefined): number {
    const id = this.cities.id(folded);
    if (id === this.cityNames.length) this.cityNames.push(spelled?.trim() ?? '');
    return id;
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
      nameTokenIds: this.nameTokenIds.subarray(0, this.nameTokenOffsets[count]),
      nameQualifierMasks: this.nameQualifierMasks.subarray(0, count),
      nameSignatures: this.nameSignatures.subarray(0, count * SIGNATURE_WORDS),
      latitudes: this.latitudes.subarray(0, count),
      longitudes: this.longitudes.subarray(0, count),
      countries: this.countries.values,
      countryOfHotel: this.countryOfHotel.subarray(0, count),
      cities: this.cities.values,
      cityNames: this.cityNames,
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
      part.documentFrequency,
      part.nameTokenOffsets,
      part.nameTokenIds,
      part.nameQualifierMasks,
      part.nameSignatures,
      part.latitudes,
      part.longitudes,
      part.countryOfHotel,
      part.cityOfHotel,
      part.ratings,
      part.supplierEntryCodes,
      part.supplierEntryHotels,
      part.ids.starts,
      part.names.starts,
      part.postalCodes.starts,
      part.addressWords.starts,
      part.addressNumbers.starts,
      part.supplierEntryIds.starts,
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
    for (let hotel = 0; hotel < part.count; hotel++)
      this.nameTokenOffsets[base + hotel + 1] = tokensBefore + part.nameTokenOffsets[hotel + 1]!;
    this.nameQualifierMasks.set(part.nameQualifierMasks, base);
    this.nameSignatures.set(part.nameSignatures, base * SIGNATURE_WORDS);
  }

  /** The part's countries and cities (renumbered), coordinates and ratings. */
  private appendPlaces(part: MatchingIndexPart, base: number): void {
    const countryIds = part.countries.map((country) => this.countries.id(country));
    const cityIds = part.cities.map((city, partId) => this.cityIdOf(city, part.cityNames[partId]));
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
    const { count, vocabulary, documentFrequency, nameTokenOffsets, nameTokenIds, countryOfHotel, cityOfHotel, latitudes, longitudes } =
      this;
    const tokenWeights = Float32Array.from(
      vocabulary,
      (token, id) => inverseDocumentFrequency(count, documentFrequency[id]!) * KIND_WEIGHT[tokenKind(token)],
    );

    // Hotels are renumbered by (country, grid cell) so that the hotels one search visits (a
    // neighbourhood, a city) sit side by side in every per-hotel array: far fewer cache misses.
    const inputCells = new Int32Array(count);
    for (let hotel = 0; hotel < count; hotel++) {
      inputCells[hotel] = Number.isNaN(latitudes[hotel]!)
        ? -1
        : cellKey(latitudeCell(latitudes[hotel]!), longitudeCell(longitudes[hotel]!));
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
      for (let word = 0; word < SIGNATURE_WORDS; word++)
        nameSignatures[position * SIGNATURE_WORDS + word] = this.nameSignatures[hotel * SIGNATURE_WORDS + word]!;
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
        cityNames: this.cityNames,
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
      lazySupplierHotels(
        data,
        this.supplierCodes.values,
        this.supplierEntryCodes,
        this.supplierEntryIds.packed(),
        this.supplierEntryHotels,
        positionOf,
      );
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
  cityNames: string[];
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
function startCounting(
  countElsewhere: (input: NamesakeInput) => Promise<Uint16Array>,
  input: NamesakeInput,
): Promise<Uint16Array | undefined> {
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
 * read (matching, serialising the index) and is plain data from then on: an index built and never
 * used does not pay for millions of keys. Keys come in the order the hotels and their codes came, a
 * repeated key holding the last hotel.
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
    for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++)
      cityPostingHotels[cityCursor[nameTokenIds[k]!]!++] = hotel;
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
    for (let hotel = 0, k = 0; hotel < count; hotel++)
      if (!textIsEmpty(postalCodes, hotel)) packed[k++] = (hashes[hotel]! + 2 ** 31) * 2 ** 21 + hotel;
    packed.sort();
    for (let k = 0; k < coded; k++) postalHotels[k] = packed[k]! % 2 ** 21;
  } else {
    for (let hotel = 0, k = 0; hotel < count; hotel++) if (!textIsEmpty(postalCodes, hotel)) postalHotels[k++] = hotel;
    postalHotels.sort((a, b) => hashes[a]! - hashes[b]! || a - b);
  }
  const blocks = runsOf(postalHotels.length, (k) => hashes[postalHotels[k]!]!);
  return { postalHashes: blocks.keys, postalOffsets: blocks.offsets, postalHotels };
}
