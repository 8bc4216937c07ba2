/**
 * Name mode: fuzzy, ranked hotel-name search.
 *
 * 1. Each query word is looked up in the vocabulary of name words: exactly, else within 1 edit
 *    (the longer word has 4-7 letters) or 2 edits (8+ letters; transpositions count as one); query
 *    words of 3 letters or fewer must be exact. The last word also matches as a prefix (search
 *    as you type). Accents and case never matter.
 * 2. Hotels are scored from the posting lists of the matched words with IDF weights (rare words
 *    such as a district weigh more than "hotel"). Word order does not matter.
 * 3. A hotel matches when its name covers at least half of the query's weight, so a missing or
 *    mistyped word does not lose it; query words unknown to the vocabulary are ignored.
 * 4. relevance = 0.8 x query coverage + 0.2 x name coverage (shorter, closer names first); the
 *    best RESCORE_POOL are re-scored with a character-trigram similarity of the whole name, which
 *    rewards the right word order and spelling.
 */
import { postingList, readString } from './columns';
import type { NameScoringScratch, ReferenceSearchIndex } from './index-model';
import { rowPasses, summarize, type RowFilter } from './row-filter';
import { TopK } from './top-k';
import { boundedEditDistance, foldText, foldWords, paddedBigrams, toleratedEdits, trigramDice } from '../../platform/text';
import type { SearchPage } from './types';

/** Share of the query's weight a name must cover to count as a match. */
export const MIN_QUERY_COVERAGE = 0.5;
/** Candidates re-scored with the whole-name similarity. */
export const RESCORE_POOL = 100;
const QUERY_COVERAGE_WEIGHT = 0.8;
const WHOLE_NAME_WEIGHT = 0.15;
const MIN_PREFIX_LENGTH = 3;
const MAX_PREFIX_WORDS = 50;
/** Float rounding slack when comparing coverage with the threshold. */
const EPSILON = 1e-6;

export interface WordMatch {
  word: number;
  /** 1 for the same word, less for typos and prefixes. */
  similarity: number;
}

export function searchByName(index: ReferenceSearchIndex, query: string, filter: RowFilter, limit: number, offset: number): SearchPage {
  const queryWords = foldWords(query);
  const distinctWords = [...new Set(queryWords)];
  const scratch = nameScratch(index);
  const queryStamp = nextStamp(scratch);
  let touchedCount = 0;
  let queryWeight = 0;

  distinctWords.forEach((word, position) => {
    const allowPrefix = position === distinctWords.length - 1 && word === queryWords.at(-1);
    const matches = matchWord(index, scratch, word, allowPrefix);
    if (matches.length === 0) return;
    // The word's own weight: that of its closest vocabulary word.
    const wordWeight = index.wordIdf[matches[0]!.word]!;
    queryWeight += wordWeight;
    const contributions = matches
      .map(({ word: vocabularyWord, similarity }) => {
        const idf = index.wordIdf[vocabularyWord]!;
        return { vocabularyWord, toQuery: Math.min(idf, wordWeight) * similarity, toName: idf * similarity };
      })
      .sort((a, b) => b.toQuery - a.toQuery);
    const wordStamp = nextStamp(scratch);
    // Best contribution first, so each hotel is credited once per query word with its best match.
    for (const { vocabularyWord, toQuery, toName } of contributions) {
      const rows = postingList(index.columns.wordHotels, vocabularyWord);
      touchedCount = creditRows(scratch, rows, { queryStamp, wordStamp, toQuery, toName }, touchedCount);
    }
  });
  if (queryWeight === 0) return { results: [], total: 0 };

  // Capped by the hotels touched, so that a huge offset cannot size the heap.
  const best = new TopK(Math.min(Math.max(RESCORE_POOL, offset + limit), touchedCount));
  const total = selectMatches(index, scratch, touchedCount, queryWeight, filter, best);

  const foldedQuery = queryWords.join(' ');
  const ranked = best
    .sorted()
    .map(({ score, row }) => {
      const foldedName = foldText(readString(index.columns.names, row));
      return { row, score: (1 - WHOLE_NAME_WEIGHT) * score + WHOLE_NAME_WEIGHT * trigramDice(foldedQuery, foldedName) };
    })
    .sort((a, b) => b.score - a.score || a.row - b.row);
  return { results: ranked.slice(offset, offset + limit).map(({ row }) => summarize(index, row)), total };
}

interface Credit {
  queryStamp: number;
  wordStamp: number;
  toQuery: number;
  toName: number;
}

/**
 * Adds one vocabulary word's contribution to the hotels of its posting list (once per query word
 * and hotel) and returns the new count of touched hotels. Module-level so V8 keeps it optimised.
 */
function creditRows(scratch: NameScoringScratch, rows: Uint32Array, credit: Credit, touchedCount: number): number {
  const { queryStamp, wordStamp, toQuery, toName } = credit;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (scratch.queryStamp[row] !== queryStamp) {
      scratch.queryStamp[row] = queryStamp;
      scratch.queryScore[row] = 0;
      scratch.nameScore[row] = 0;
      scratch.touched[touchedCount++] = row;
    }
    if (scratch.wordStamp[row] !== wordStamp) {
      scratch.wordStamp[row] = wordStamp;
      scratch.queryScore[row]! += toQuery;
      scratch.nameScore[row]! += toName;
    }
  }
  return touchedCount;
}

/** Offers every touched hotel above the coverage threshold and passing the filter; returns their count. */
function selectMatches(
  index: ReferenceSearchIndex,
  scratch: NameScoringScratch,
  touchedCount: number,
  queryWeight: number,
  filter: RowFilter,
  best: TopK,
): number {
  const minimumScore = MIN_QUERY_COVERAGE * queryWeight - EPSILON;
  let total = 0;
  for (let i = 0; i < touchedCount; i++) {
    const row = scratch.touched[i]!;
    const queryScore = scratch.queryScore[row]!;
    if (queryScore < minimumScore || !rowPasses(index, filter, row)) continue;
    total++;
    const nameCoverage = Math.min(1, scratch.nameScore[row]! / index.columns.nameWeight[row]!);
    best.offer(QUERY_COVERAGE_WEIGHT * (queryScore / queryWeight) + (1 - QUERY_COVERAGE_WEIGHT) * nameCoverage, row);
  }
  return total;
}

/** Vocabulary words matching a folded query word, best similarity first. */
export function matchWord(index: ReferenceSearchIndex, scratch: NameScoringScratch, word: string, allowPrefix: boolean): WordMatch[] {
  const { vocabulary } = index.columns;
  const start = lowerBound(vocabulary, word);
  const exact = vocabulary[start] === word;
  const matches: WordMatch[] = exact ? [{ word: start, similarity: 1 }] : typoMatches(index, scratch, word);
  if (allowPrefix && word.length >= MIN_PREFIX_LENGTH) {
    const [from, to] = wordPrefixRange(vocabulary, word);
    const prefixMatches: WordMatch[] = [];
    for (let id = exact ? from + 1 : from; id < to; id++) {
      prefixMatches.push({ word: id, similarity: 0.7 + (0.25 * word.length) / vocabulary[id]!.length });
    }
    prefixMatches.sort((a, b) => b.similarity - a.similarity);
    matches.push(...prefixMatches.slice(0, MAX_PREFIX_WORDS));
  }
  return matches.sort((a, b) => b.similarity - a.similarity);
}

/**
 * Words within the tolerated edit distance, found through shared padded bigrams. The tolerance
 * follows the longer of the two words, so a dropped letter costs no more than any other typo.
 */
function typoMatches(index: ReferenceSearchIndex, scratch: NameScoringScratch, word: string): WordMatch[] {
  if (toleratedEdits(word.length) === 0) return [];
  const maxEdits = toleratedEdits(word.length + 1);
  const bigrams = [...new Set(paddedBigrams(word))];
  // Each edit destroys at most three bigrams (a transposition); fewer shared ones cannot match.
  const requiredShared = Math.max(1, bigrams.length - 3 * maxEdits);
  const candidates: number[] = [];
  const shared = scratch.sharedBigrams;
  for (const bigram of bigrams) {
    const words = index.vocabularyBigrams.get(bigram);
    if (!words) continue;
    for (let i = 0; i < words.length; i++) {
      const id = words[i]!;
      if (shared[id] === 0) candidates.push(id);
      shared[id]! += 1;
    }
  }
  const matches: WordMatch[] = [];
  for (const id of candidates) {
    const sharedCount = shared[id]!;
    shared[id] = 0;
    if (sharedCount < requiredShared) continue;
    const candidate = index.columns.vocabulary[id]!;
    const distance = boundedEditDistance(word, candidate, maxEdits);
    // boundedEditDistance answers maxEdits + 1 for anything farther, so both bounds apply.
    if (distance <= Math.min(maxEdits, toleratedEdits(Math.max(word.length, candidate.length)))) {
      matches.push({ word: id, similarity: 1 - distance / Math.max(word.length, candidate.length) });
    }
  }
  return matches;
}

/** First position whose word is >= the given word. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function wordPrefixRange(vocabulary: readonly string[], prefix: string): [number, number] {
  const start = lowerBound(vocabulary, prefix);
  let end = start;
  while (end < vocabulary.length && vocabulary[end]!.startsWith(prefix)) end++;
  return [start, end];
}

function nameScratch(index: ReferenceSearchIndex): NameScoringScratch {
  if (!index.scratch) {
    const hotels = index.columns.hotelCount;
    index.scratch = {
      queryScore: new Float32Array(hotels),
      nameScore: new Float32Array(hotels),
      queryStamp: new Int32Array(hotels),
      wordStamp: new Int32Array(hotels),
      lastStamp: 0,
      touched: new Uint32Array(hotels),
      sharedBigrams: new Uint8Array(index.columns.vocabulary.length),
    };
  }
  return index.scratch;
}

/** A fresh stamp value; stamps wrap by clearing the stamp arrays (every 2^31 uses). */
function nextStamp(scratch: NameScoringScratch): number {
  if (scratch.lastStamp >= 0x7fffffff) {
    scratch.queryStamp.fill(0);
    scratch.wordStamp.fill(0);
    scratch.lastStamp = 0;
  }
  return ++scratch.lastStamp;
}
