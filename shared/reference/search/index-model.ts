/**
 * The search index in two layers:
 * - `IndexColumns`: everything that is persisted in the artifact (typed arrays and string lists);
 * - `ReferenceSearchIndex`: the columns plus lookups derived from them when loading (cheap to
 *   rebuild, so they are not stored).
 *
 * Row numbers ("docs") are hotels sorted by folded name, then name, then id. Every posting list is
 * ascending, so walking one visits hotels in name order: filter mode and sortBy=name need no sort.
 */
import KDBush from 'kdbush';
import type { DictionaryColumn, PostingLists, StringColumn } from './columns';
import { paddedBigrams } from '../../platform/text';

/** A filter dimension (country, city, region): folded keys and the hotels of each key. */
export interface FilterKeyColumns {
  /** Folded keys (platform `foldText`), one per distinct folded value. */
  keys: string[];
  /** Key of each dictionary value of the dimension. */
  keyOfValue: Uint32Array;
  /** Hotels of each key, in name order. */
  hotels: PostingLists;
}

export interface IndexColumns {
  formatVersion: number;
  hotelCount: number;
  ids: StringColumn;
  names: StringColumn;
  country: DictionaryColumn;
  /** ISO alpha-2 code of each country dictionary value ('' when unknown); accepted by the country filter. */
  countryIsoCodes: string[];
  city: DictionaryColumn;
  region: DictionaryColumn;
  /** NaN when missing. */
  lat: Float64Array;
  lon: Float64Array;
  rating: Float64Array;
  /** Milliseconds since the epoch. */
  createdAt: Float64Array;
  /** Hotels by (rating, name) and (createdAt, name) ascending, hotels without a value last. */
  ratingOrder: Uint32Array;
  createdOrder: Uint32Array;
  /** Distinct folded name words, sorted (so that a prefix is a contiguous range). */
  vocabulary: string[];
  /** Hotels whose name contains each vocabulary word. */
  wordHotels: PostingLists;
  /** Sum of the IDF of each hotel's distinct name words. */
  nameWeight: Float32Array;
  countryKeys: FilterKeyColumns;
  cityKeys: FilterKeyColumns;
  regionKeys: FilterKeyColumns;
  /** Hotels with coordinates, in the order they were added to the KD-tree. */
  geoHotels: Uint32Array;
  /** KDBush data over (lon, lat) of geoHotels. */
  geoTree: Uint8Array;
}

/**
 * 2: names, filter values and queries folded by the platform fold (shared/platform/text.ts:
 * transliteration, "&" = "and", apostrophes); an artifact of 1 holds words of the older search-only
 * fold, which queries would no longer meet, so it is rejected and must be rebuilt.
 */
export const INDEX_FORMAT_VERSION = 2;

/** Resolves a filter value (case- and accent-insensitive) to its key, or undefined. */
export type FilterKeyLookup = ReadonlyMap<string, number>;

export interface ReferenceSearchIndex {
  readonly columns: IndexColumns;
  /** Inverse document frequency of each vocabulary word. */
  readonly wordIdf: Float32Array;
  /** Vocabulary words containing each padded bigram (for typo-tolerant word lookup). */
  readonly vocabularyBigrams: ReadonlyMap<string, Uint32Array>;
  readonly countryLookup: FilterKeyLookup;
  readonly cityLookup: FilterKeyLookup;
  readonly regionLookup: FilterKeyLookup;
  readonly geoTree: KDBush;
  /** Per-hotel work arrays reused by name queries (allocated on first use). */
  scratch?: NameScoringScratch;
}

export interface NameScoringScratch {
  /** Query-side matched weight per hotel. */
  queryScore: Float32Array;
  /** Name-side matched weight per hotel. */
  nameScore: Float32Array;
  /** Last query that touched each hotel. */
  queryStamp: Int32Array;
  /** Last (query, word) that scored each hotel, so a query word counts once per hotel. */
  wordStamp: Int32Array;
  lastStamp: number;
  /** Hotels touched by the current query. */
  touched: Uint32Array;
  /** Bigrams each vocabulary word shares with the word being looked up. */
  sharedBigrams: Uint8Array;
}

/** IDF with add-one smoothing: rare words weigh more, words in every name weigh ~0.7. */
export function inverseDocumentFrequency(hotelCount: number, documentFrequency: number): number {
  return Math.log(1 + hotelCount / Math.max(1, documentFrequency));
}

/** Derives the lookups the searches need from persisted columns. */
export function hydrateIndex(columns: IndexColumns): ReferenceSearchIndex {
  const wordIdf = new Float32Array(columns.vocabulary.length);
  const { offsets } = columns.wordHotels;
  for (let word = 0; word < wordIdf.length; word++) {
    wordIdf[word] = inverseDocumentFrequency(columns.hotelCount, offsets[word + 1]! - offsets[word]!);
  }
  const countryLookup = new Map(columns.countryKeys.keys.map((key, keyId) => [key, keyId]));
  columns.countryIsoCodes.forEach((isoCode, value) => {
    if (isoCode) countryLookup.set(isoCode.toLowerCase(), columns.countryKeys.keyOfValue[value]!);
  });
  return {
    columns,
    wordIdf,
    vocabularyBigrams: buildVocabularyBigrams(columns.vocabulary),
    countryLookup,
    cityLookup: new Map(columns.cityKeys.keys.map((key, keyId) => [key, keyId])),
    regionLookup: new Map(columns.regionKeys.keys.map((key, keyId) => [key, keyId])),
    geoTree: KDBush.from(copyToOwnBuffer(columns.geoTree)),
  };
}

function buildVocabularyBigrams(vocabulary: readonly string[]): Map<string, Uint32Array> {
  const words = new Map<string, number[]>();
  vocabulary.forEach((word, wordId) => {
    for (const bigram of new Set(paddedBigrams(word))) {
      const list = words.get(bigram);
      if (list) list.push(wordId);
      else words.set(bigram, [wordId]);
    }
  });
  return new Map([...words].map(([bigram, list]) => [bigram, Uint32Array.from(list)]));
}

/** KDBush reads its data from offset 0 of an ArrayBuffer of its own. */
function copyToOwnBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
