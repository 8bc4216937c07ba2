/**
 * Comparing two names word by word: a weighted soft Dice (rare words count more, typos and
 * abbreviations partly, words joined on one side and apart on the other), which words found a
 * counterpart, and what that says (one name's qualifier only, a word for another kind of place).
 */
import type { MatchingIndex } from './matching-index';
import { tokenSimilarity } from './similarity';
import { differentKindWord } from './place-kinds';
import { isNumberToken, tokenKind } from './text';

/** A name's tokens with their ids in the reference vocabulary (-1 unknown) and weights. */
export interface NameView {
  /** Only the first `count` entries of texts, ids and weights are the name's (views may be reused buffers). */
  texts: string[];
  ids: Int32Array;
  weights: Float32Array;
  count: number;
  total: number;
  /** Which tokens are the name's qualifier ("@ Club X", "(Station)"): see NameParts. */
  qualifierMask: number;
}

/** A reference hotel's name as a NameView; written into `into` (a reusable buffer) when given. */
export function referenceNameView(index: MatchingIndex, hotel: number, into?: NameView): NameView {
  const { nameTokenOffsets, nameTokenIds, tokenWeights, vocabulary, nameWeightTotals, nameQualifierMasks } = index.data;
  const start = nameTokenOffsets[hotel]!;
  const count = nameTokenOffsets[hotel + 1]! - start;
  const view =
    into && into.ids.length >= count
      ? into
      : {
          texts: [],
          ids: new Int32Array(Math.max(count, 16)),
          weights: new Float32Array(Math.max(count, 16)),
          count: 0,
          total: 0,
          qualifierMask: 0,
        };
  for (let k = 0; k < count; k++) {
    const id = nameTokenIds[start + k]!;
    view.ids[k] = id;
    view.texts[k] = vocabulary[id]!;
    view.weights[k] = tokenWeights[id]!;
  }
  view.count = count;
  view.total = nameWeightTotals[hotel]!;
  view.qualifierMask = nameQualifierMasks[hotel]!;
  return view;
}

/** An empty reusable NameView buffer for referenceNameView. */
export function nameViewBuffer(): NameView {
  return { texts: [], ids: new Int32Array(32), weights: new Float32Array(32), count: 0, total: 0, qualifierMask: 0 };
}

export interface NameComparison {
  /** 0..1: weight of the words both names share (typos and abbreviations partly) over all their weight. */
  similarity: number;
  /** Both names carry numbers and none agree ("Blk 701" / "Blk 704", "Hall 8" / "Hall 9"). */
  numberConflict: boolean;
  /** 0..1 share of each name's weight in words the other lacks ("Gym @ Club X" against "Club X": extraB > 0). */
  extraA: number;
  extraB: number;
  /**
   * One name is a place inside or beside the other: the words they share are its qualifier and its
   * own distinctive words have no counterpart ("Canteen @ Edgefield School" against "Edgefield School").
   */
  subPlace: boolean;
  /** Which words of each name found a counterpart (bit k: word k), for the kind-of-place check. */
  matchedA: number;
  matchedB: number;
  /** Every word of a found a counterpart in b. */
  allOfA: boolean;
  /** All of a's words are b's first words ("Caffe Nero" of "Caffe Nero Raffles Place"). */
  aBeginsB: boolean;
}

// Names longer than this many words are compared on their first words only (bit masks below).
export const MAX_COMPARED_WORDS = 30;

/**
 * Soft weighted Dice of two names: exact word matches first, then typo/abbreviation matches, then
 * words written together on one side and apart on the other ("Redhouse" / "Red House").
 */
export function compareNames(a: NameView, b: NameView): NameComparison {
  const countA = Math.min(a.count, MAX_COMPARED_WORDS);
  const countB = Math.min(b.count, MAX_COMPARED_WORDS);
  let matchedA = 0;
  let matchedB = 0;
  let shared = 0;
  let totalCorrection = 0;
  for (let i = 0; i < countA; i++) {
    for (let k = 0; k < countB; k++) {
      if ((matchedB >>> k) & 1) continue;
      if (a.ids[i]! >= 0 ? a.ids[i] === b.ids[k] : a.texts[i] === b.texts[k]) {
        shared += a.weights[i]! + b.weights[k]!;
        matchedA |= 1 << i;
        matchedB |= 1 << k;
        break;
      }
    }
  }
  if (matchedA !== (1 << countA) - 1 && matchedB !== (1 << countB) - 1) {
    // Joined words first: otherwise "lutetiaparis" would pair with "lutetia" as an abbreviation.
    const joinedA = matchJoinedWords(a, countA, matchedA, b, countB, matchedB);
    const joinedB = matchJoinedWords(b, countB, joinedA.matchedOther, a, countA, joinedA.matchedSingle);
    shared += joinedA.shared + joinedB.shared;
    matchedA = joinedB.matchedOther;
    matchedB = joinedB.matchedSingle;
    for (let i = 0; i < countA; i++) {
      if ((matchedA >>> i) & 1) continue;
      let best = 0;
      let bestK = -1;
      for (let k = 0; k < countB; k++) {
        if ((matchedB >>> k) & 1) continue;
        const similarity = tokenSimilarity(a.texts[i]!, b.texts[k]!);
        if (similarity > best) {
          best = similarity;
          bestK = k;
        }
      }
      if (bestK >= 0) {
        // A word the reference does not know, matched by a typo, is that reference word misspelt:
        // it weighs what the word weighs.
        const weightA = a.ids[i]! < 0 && b.ids[bestK]! >= 0 ? b.weights[bestK]! : a.weights[i]!;
        const weightB = b.ids[bestK]! < 0 && a.ids[i]! >= 0 ? a.weights[i]! : b.weights[bestK]!;
        totalCorrection += weightA - a.weights[i]! + weightB - b.weights[bestK]!;
        shared += best * (weightA + weightB);
        matchedA |= 1 << i;
        matchedB |= 1 << bestK;
      }
    }
  }
  // A qualifier the other name does not mention ("@ Sims Way", "(Lakeside Campus)") is where or
  // which part, said by one source only: it weighs a quarter of its words.
  const unmatchedQualifiers = unmatchedQualifierWeight(a, countA, matchedA) + unmatchedQualifierWeight(b, countB, matchedB);
  const total = a.total + b.total + totalCorrection - (1 - UNMATCHED_QUALIFIER_WEIGHT) * unmatchedQualifiers;
  const allOfA = matchedA === (1 << countA) - 1;
  return {
    similarity: total > 0 ? Math.min(1, shared / total) : 0,
    numberConflict: hasNumberConflict(a, b),
    extraA: unmatchedShare(a, countA, matchedA),
    extraB: unmatchedShare(b, countB, matchedB),
    subPlace: isSubPlace(a, countA, matchedA) || isSubPlace(b, countB, matchedB),
    matchedA,
    matchedB,
    // Every word of a found a counterpart, and b's matched words are its first ones (bits 0..n-1).
    // b adds no qualifier ("Fitness Corner @ Blk 26" is a place at another, not an outlet).
    allOfA,
    aBeginsB: b.qualifierMask === 0 && allOfA && matchedB !== 0 && (matchedB & (matchedB + 1)) === 0,
  };
}

/**
 * The word that makes one name a different kind of place than the other (place-kinds.ts): only
 * when the names share a distinctive word, so that "X Gym" against "X" counts and unrelated names
 * are left alone. Qualifier words say where a place is and are handled as sub-places (isSubPlace).
 */
export function extraKind(a: NameView, b: NameView, comparison: NameComparison): string | undefined {
  const { matchedA, matchedB } = comparison;
  const countA = Math.min(a.count, MAX_COMPARED_WORDS);
  const countB = Math.min(b.count, MAX_COMPARED_WORDS);
  if (!sharesDistinctiveWord(a, countA, matchedA)) return undefined;
  splitWords(a, countA, matchedA, kindScratch.wordsA, kindScratch.extraA);
  splitWords(b, countB, matchedB, kindScratch.wordsB, kindScratch.extraB);
  const { wordsA, extraA, wordsB, extraB } = kindScratch;
  return extraA.length + extraB.length > 0 ? differentKindWord(wordsA, extraA, wordsB, extraB) : undefined;
}

// Reused for every candidate: scoring allocates nothing per comparison.
const kindScratch = { wordsA: [] as string[], extraA: [] as string[], wordsB: [] as string[], extraB: [] as string[] };

/** A name's words and those the other lacks; qualifier words say where a place is, not what, and are left out. */
function splitWords(view: NameView, count: number, matched: number, words: string[], extra: string[]): void {
  words.length = 0;
  extra.length = 0;
  for (let i = 0; i < count; i++) {
    if ((view.qualifierMask >>> i) & 1) continue;
    words.push(view.texts[i]!);
    if (!((matched >>> i) & 1)) extra.push(view.texts[i]!);
  }
}

function sharesDistinctiveWord(view: NameView, count: number, matched: number): boolean {
  for (let i = 0; i < count; i++) if ((matched >>> i) & 1 && tokenKind(view.texts[i]!) === 'distinctive') return true;
  return false;
}

/** Share of its weight an unmatched qualifier word keeps in the name similarity. */
const UNMATCHED_QUALIFIER_WEIGHT = 0.25;

function unmatchedQualifierWeight(view: NameView, count: number, matched: number): number {
  const unmatched = view.qualifierMask & ~matched;
  if (unmatched === 0) return 0;
  let weight = 0;
  for (let i = 0; i < count; i++) if ((unmatched >>> i) & 1) weight += view.weights[i]!;
  return weight;
}

/** Only the qualifier of the name found a counterpart, none of its distinctive head words did. */
function isSubPlace(view: NameView, count: number, matched: number): boolean {
  const qualifier = view.qualifierMask;
  if ((matched & qualifier) === 0) return false;
  let distinctiveHead = false;
  for (let i = 0; i < count; i++) {
    if ((qualifier >>> i) & 1) continue;
    const kind = tokenKind(view.texts[i]!);
    if (kind !== 'distinctive' && kind !== 'number') continue;
    if ((matched >>> i) & 1) return false;
    distinctiveHead = true;
  }
  return distinctiveHead;
}

/** Share of a name's weight in words the other name has no counterpart for. */
function unmatchedShare(view: NameView, count: number, matched: number): number {
  if (view.total <= 0) return 0;
  let unmatched = 0;
  for (let i = 0; i < count; i++) if (!((matched >>> i) & 1)) unmatched += view.weights[i]!;
  return Math.min(1, unmatched / view.total);
}

/** One unmatched word of `single` against two or three consecutive unmatched words of `split`. */
function matchJoinedWords(
  single: NameView,
  singleCount: number,
  singleMatched: number,
  split: NameView,
  splitCount: number,
  splitMatched: number,
) {
  let shared = 0;
  for (let i = 0; i < singleCount; i++) {
    const word = single.texts[i]!;
    if ((singleMatched >>> i) & 1 || word.length < 5) continue;
    for (let start = 0; start < splitCount - 1; start++) {
      if ((splitMatched >>> start) & 1 || (splitMatched >>> (start + 1)) & 1) continue;
      let joined = split.texts[start]! + split.texts[start + 1]!;
      let end = start + 2;
      if (joined.length + 2 < word.length && end < splitCount && !((splitMatched >>> end) & 1)) {
        joined += split.texts[end]!;
        end += 1;
      }
      const similarity = tokenSimilarity(word, joined);
      if (similarity < 0.8) continue;
      let splitWeight = 0;
      for (let k = start; k < end; k++) {
        splitWeight += split.weights[k]!;
        splitMatched |= 1 << k;
      }
      shared += similarity * (single.weights[i]! + splitWeight);
      singleMatched |= 1 << i;
      break;
    }
  }
  return { shared, matchedSingle: singleMatched, matchedOther: splitMatched };
}

function hasNumberConflict(a: NameView, b: NameView): boolean {
  let aHasNumber = false;
  let bHasNumber = false;
  for (let k = 0; k < b.count; k++) if (isNumberToken(b.texts[k]!)) bHasNumber = true;
  if (!bHasNumber) return false;
  for (let i = 0; i < a.count; i++) {
    const text = a.texts[i]!;
    if (!isNumberToken(text)) continue;
    aHasNumber = true;
    for (let k = 0; k < b.count; k++) if (b.texts[k] === text) return false;
  }
  return aHasNumber;
}
