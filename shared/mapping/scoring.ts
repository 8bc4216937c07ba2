/**
 * Full comparison of a partner hotel with one reference candidate: the evidence (name, distance,
 * address, postcode, city, country, rating) and a calibrated log-odds that they are the same hotel.
 *
 * Each piece of evidence adds a log-likelihood ratio, and a missing field adds nothing, so absent
 * data is never a penalty. The ratios are hand-set from what supplier data usually looks like
 * (not fitted to any one data set): see the tables below.
 */
import type { PartnerHotel } from './hotels';
import { toCountryCode } from './countries';
import { hashText, textAt, textEquals } from './columns';
import { hasUsableCoordinates, nameSignatureText, type MatchingIndex } from './reference-index';
import { distanceMeters, fuzzyWordDice, SIGNATURE_WORDS, tokenSimilarity, writeTrigramSignature } from './similarity';
import { differentKindWord } from './place-kinds';
import { addressParts, isNumberToken, nameParts, normalizeCity, normalizePostalCode, tokenKind, type AddressParts, type TokenKind } from './text';
import type { MatchEvidence } from './types';

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

/** A partner row normalised once, compared with many candidates. */
export interface PreparedPartner {
  hotel: PartnerHotel;
  name: NameView;
  /** Known token ids worth looking up in the postings: the distinctive words when there are any. */
  searchTokenIds: Int32Array;
  /** A name word no reference name has: usually a typo. */
  hasUnknownWord: boolean;
  signature: Uint32Array;
  /** NaN when absent. */
  lat: number;
  lon: number;
  countryCode: string | undefined;
  countryId: number;
  city: string;
  cityId: number;
  postalCode: string;
  address: AddressParts;
  /** address.words as the index stores them, for a cheap equality check. */
  addressWordsText: string;
  /** hashText of postalCode and of addressWordsText, compared before the strings (see the index's postalCodeHashes). */
  postalCodeHash: number;
  addressWordsHash: number;
  /** NaN when absent. */
  rating: number;
}

export function preparePartner(index: MatchingIndex, hotel: PartnerHotel): PreparedPartner {
  const { tokens: texts, qualifierMask } = nameParts(hotel.name);
  const ids = Int32Array.from(texts, (token) => index.tokenId(token));
  const weights = Float32Array.from(texts, (token, k) => index.tokenWeight(token, ids[k]!));
  const signature = new Uint32Array(SIGNATURE_WORDS);
  writeTrigramSignature(nameSignatureText(texts), signature, 0);
  const located = hasUsableCoordinates(hotel.lat, hotel.lon);
  const countryCode = toCountryCode(hotel.country);
  const city = normalizeCity(hotel.city);
  const address = addressParts(hotel.address ?? '');
  const postalCode = normalizePostalCode(hotel.postalCode);
  const addressWordsText = address.words.join(' ');
  return {
    hotel,
    name: { texts, ids, weights, count: texts.length, total: sum(weights), qualifierMask },
    searchTokenIds: searchTokenIds(texts, ids),
    hasUnknownWord: ids.includes(-1),
    signature,
    lat: located ? hotel.lat! : Number.NaN,
    lon: located ? hotel.lon! : Number.NaN,
    countryCode,
    countryId: index.countryId(countryCode),
    city,
    cityId: index.cityId(city),
    postalCode,
    address,
    addressWordsText,
    postalCodeHash: hashText(postalCode),
    addressWordsHash: hashText(addressWordsText),
    rating: hotel.rating ?? Number.NaN,
  };
}

function searchTokenIds(texts: readonly string[], ids: Int32Array): Int32Array {
  let distinctive = 0;
  let other = 0;
  for (let k = 0; k < ids.length; k++) {
    if (ids[k]! < 0) continue;
    const kind = tokenKind(texts[k]!);
    if (kind === 'distinctive' || kind === 'number') distinctive += 1;
    else other += 1;
  }
  const wanted = distinctive > 0;
  const result = new Int32Array(wanted ? distinctive : other);
  let written = 0;
  for (let k = 0; k < ids.length; k++) {
    if (ids[k]! < 0) continue;
    const kind = tokenKind(texts[k]!);
    if ((kind === 'distinctive' || kind === 'number') === wanted) result[written++] = ids[k]!;
  }
  return result;
}

function sum(values: Float32Array): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** A reference hotel's name as a NameView; written into `into` (a reusable buffer) when given. */
export function referenceNameView(index: MatchingIndex, hotel: number, into?: NameView): NameView {
  const { nameTokenOffsets, nameTokenIds, tokenWeights, vocabulary, nameWeightTotals, nameQualifierMasks } = index.data;
  const start = nameTokenOffsets[hotel]!;
  const count = nameTokenOffsets[hotel + 1]! - start;
  const view = into && into.ids.length >= count ? into : { texts: [], ids: new Int32Array(Math.max(count, 16)), weights: new Float32Array(Math.max(count, 16)), count: 0, total: 0, qualifierMask: 0 };
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

const candidateName = nameViewBuffer();

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
function matchJoinedWords(single: NameView, singleCount: number, singleMatched: number, split: NameView, splitCount: number, splitMatched: number) {
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

/**
 * Hat (piecewise-linear interpolation) basis: writes into features[offset..offset+knots.length) the
 * weights that interpolate x between its two neighbouring knots (flat beyond the ends), so that a
 * dot product with per-knot values interpolates those values.
 */
function writeHatBasis(x: number, knots: readonly number[], features: Float64Array, offset: number): void {
  for (let i = 0; i < knots.length; i++) features[offset + i] = 0;
  if (x <= knots[0]!) {
    features[offset] = 1;
    return;
  }
  for (let i = 1; i < knots.length; i++) {
    if (x <= knots[i]!) {
      const t = (x - knots[i - 1]!) / (knots[i]! - knots[i - 1]!);
      features[offset + i - 1] = 1 - t;
      features[offset + i] = t;
      return;
    }
  }
  features[offset + knots.length - 1] = 1;
}

// The model: log-odds that a candidate found by blocking is the partner hotel = the dot product of
// the candidate's evidence features with FEATURE_WEIGHTS. Each piece of evidence is a log-likelihood
// ratio and a missing field contributes nothing, so absent data is never a penalty.
/** Name similarity knots: the name's log-likelihood ratio is interpolated between them. */
export const NAME_SIMILARITY_KNOTS = [0, 0.3, 0.5, 0.65, 0.8, 0.9, 1] as const;
/** Distance knots in metres. */
export const DISTANCE_KNOTS = [0, 30, 100, 250, 500, 1000, 2000, 5000, 20000] as const;
const NAME_AT = 1;
const DISTANCE_AT = NAME_AT + NAME_SIMILARITY_KNOTS.length;
const REST_AT = DISTANCE_AT + DISTANCE_KNOTS.length;

/** Names of the features, in vector order (knot features are named by their knot). */
export const FEATURE_NAMES: readonly string[] = [
  'bias',
  ...NAME_SIMILARITY_KNOTS.map((knot) => `name=${knot}`),
  ...DISTANCE_KNOTS.map((knot) => `distance=${knot}m`),
  'nameNumberConflict',
  'partnerExtraWords',
  'referenceExtraWords',
  'subPlace',
  'differentKind',
  'namesakes',
  'postalMatch',
  'postalNeighbour',
  'postalMismatch',
  'streetMatch',
  'streetMismatch',
  'houseNumberMatch',
  'houseNumberMismatch',
  'cityMatch',
  'cityMismatch',
  'countryMismatch',
  'ratingEqual',
  'ratingOneOff',
  'ratingFar',
];
export const FEATURE_COUNT = FEATURE_NAMES.length;
const F = Object.fromEntries(FEATURE_NAMES.map((name, index) => [name, index])) as Record<string, number>;

/**
 * Log-likelihood ratio of each feature. The first version was hand-set from what supplier data
 * usually looks like; see the README for how these were refitted (test/bench/mapping-calibrate.ts).
 */
export const FEATURE_WEIGHTS = Float64Array.from(
  [
    // bias: prior log-odds that a blocked candidate is the partner hotel
    -2,
    // name similarity at 0, 0.3, 0.5, 0.65, 0.8, 0.9, 1
    -6, -4, -2, 0, 2, 3.2, 4.2,
    // distance at 0, 30, 100, 250, 500, 1000, 2000, 5000, 20000 m
    2.5, 2.3, 1.8, 1.0, 0, -1.2, -2.5, -4, -6,
    // name number conflict, partner extra words, reference extra words, one a place inside the other,
    // one adds a word for a different kind of place (a gym, a station: place-kinds.ts)
    -2, 0, 0, -3, -3,
    // log2 of how many reference places near the candidate carry its name, when the names agree and
    // the pins are over 300 m apart (in full from 600 m)
    -0.5,
    // postcode match, neighbour, mismatch
    2.5, -0.3, -2.5,
    // street match, mismatch, house number match, mismatch (same street)
    1, -1.5, 1, -1,
    // city match, mismatch, country mismatch
    0.3, -0.8, -5,
    // rating equal, one off, far
    0.2, -0.3, -1,
  ],
);

/** What a word naming a different kind of place takes off a candidate's log-odds. */
export const DIFFERENT_KIND_LOG_ODDS = FEATURE_WEIGHTS[F.differentKind!]!;

/** Below this name similarity a candidate is not checked for a different kind of place (it is not one place's part). */
const KIND_CHECK_SIMILARITY = 0.4;
/** Candidates less likely than this without the kind-of-place check are not checked (e^-2: about 12 %). */
const KIND_CHECK_MIN_LOG_ODDS = -2;
/** Names at least this alike count as the same name for the namesakes feature. */
const NAMESAKE_SIMILARITY = 0.9;

/** Street words at least this alike are the same street. */
const SAME_STREET_SIMILARITY = 0.6;
const DIFFERENT_STREET_SIMILARITY = 0.3;

/** A candidate with its log-odds; the full evidence object is built only when asked for. */
export class ScoredCandidate {
  private cachedEvidence: MatchEvidence | undefined;
  constructor(
    private readonly index: MatchingIndex,
    private readonly partner: PreparedPartner,
    readonly hotel: number,
    /** Log-odds that this candidate alone is the partner hotel. */
    readonly logOdds: number,
    readonly nameSimilarity: number,
    readonly distanceMeters: number | null,
    readonly cityMatch: boolean | null,
    /** A word one name adds that names a different kind of place, for the reviewer (place-kinds.ts). */
    readonly differentKind: string | undefined,
    /** The partner's name begins the candidate's ("Caffe Nero" of "Caffe Nero Raffles Place"): an outlet of the chain the row names. */
    readonly containsPartnerName: boolean,
  ) {}

  /**
   * The same candidate as an outlet of the chain the row names (the matcher's chain rule): other
   * log-odds, and its extra words say where the outlet is, not another kind of place.
   */
  asOutlet(logOdds: number): ScoredCandidate {
    return new ScoredCandidate(this.index, this.partner, this.hotel, logOdds, this.nameSimilarity, this.distanceMeters, this.cityMatch, undefined, this.containsPartnerName);
  }

  get evidence(): MatchEvidence {
    this.cachedEvidence ??= candidateFeatures(this.index, this.partner, this.hotel, new Float64Array(FEATURE_COUNT));
    return this.cachedEvidence;
  }
}

const scratchFeatures = new Float64Array(FEATURE_COUNT);
const postalScratch = new Uint32Array(2);
const scratchSummary: EvidenceSummary = { names: undefined, nameSimilarity: 0, distance: null, addressSimilarity: null, sameStreet: false, numbersAgree: null, postal: null, cityMatch: null, countryMatch: null, differentKind: undefined, partnerExtra: 0 };

export function scoreCandidate(index: MatchingIndex, partner: PreparedPartner, hotel: number, weights: Float64Array = FEATURE_WEIGHTS): ScoredCandidate {
  const summary = writeFeatures(index, partner, hotel, scratchFeatures, scratchSummary, false);
  let logOdds = 0;
  for (let k = 0; k < FEATURE_COUNT; k++) logOdds += scratchFeatures[k]! * weights[k]!;
  // The kind-of-place check costs more than every other feature together and can only lower a
  // score: it runs for candidates plausible without it (the rest could not be chosen anyway).
  if (logOdds > KIND_CHECK_MIN_LOG_ODDS && summary.nameSimilarity >= KIND_CHECK_SIMILARITY) {
    summary.differentKind = extraKind(partner.name, candidateName, summary.names!);
    if (summary.differentKind) logOdds += weights[F.differentKind!]!;
  }
  return new ScoredCandidate(
    index,
    partner,
    hotel,
    logOdds,
    round(summary.nameSimilarity, 3),
    summary.distance === null ? null : Math.round(summary.distance),
    summary.cityMatch,
    summary.differentKind,
    summary.partnerExtra === 0,
  );
}

/** The log-odds a name similarity adds on its own (its knots' weights, interpolated). */
export function nameLogOdds(similarity: number, weights: Float64Array = FEATURE_WEIGHTS): number {
  writeHatBasis(similarity, NAME_SIMILARITY_KNOTS, nameScratch, 0);
  let odds = 0;
  for (let k = 0; k < NAME_SIMILARITY_KNOTS.length; k++) odds += nameScratch[k]! * weights[NAME_AT + k]!;
  return odds;
}

const nameScratch = new Float64Array(NAME_SIMILARITY_KNOTS.length);

/** Raw comparison results behind the features, written into a reusable object. */
interface EvidenceSummary {
  /** The two names compared (for a kind-of-place check left till later: see scoreCandidate). */
  names: NameComparison | undefined;
  nameSimilarity: number;
  distance: number | null;
  addressSimilarity: number | null;
  sameStreet: boolean;
  numbersAgree: boolean | null;
  postal: boolean | 'neighbour' | null;
  cityMatch: boolean | null;
  countryMatch: boolean | null;
  differentKind: string | undefined;
  /** 0 when the partner's name begins the candidate's (a chain's outlet), else 1. */
  partnerExtra: number;
}

/** Writes the candidate's evidence features into `features` (FEATURE_COUNT long) and returns the evidence. */
export function candidateFeatures(index: MatchingIndex, partner: PreparedPartner, hotel: number, features: Float64Array): MatchEvidence {
  const summary = writeFeatures(index, partner, hotel, features, { ...scratchSummary });
  return {
    nameSimilarity: round(summary.nameSimilarity, 3),
    distanceMeters: summary.distance === null ? null : Math.round(summary.distance),
    addressMatch: summary.addressSimilarity === null ? null : summary.sameStreet && summary.numbersAgree !== false,
    addressSimilarity: summary.addressSimilarity === null ? null : round(summary.addressSimilarity, 3),
    postalCodeMatch: summary.postal === null ? null : summary.postal === true,
    cityMatch: summary.cityMatch,
    countryMatch: summary.countryMatch,
  };
}

function writeFeatures(
  index: MatchingIndex,
  partner: PreparedPartner,
  hotel: number,
  features: Float64Array,
  summary: EvidenceSummary,
  checkKind = true,
): EvidenceSummary {
  const data = index.data;
  features.fill(0);
  features[0] = 1;
  const candidateView = referenceNameView(index, hotel, candidateName);
  const name = compareNames(partner.name, candidateView);
  summary.names = name;
  // Only names that agree in part can be a place and its part.
  const differentKind = checkKind && name.similarity >= KIND_CHECK_SIMILARITY ? extraKind(partner.name, candidateView, name) : undefined;
  writeHatBasis(name.similarity, NAME_SIMILARITY_KNOTS, features, NAME_AT);
  if (name.numberConflict) features[F.nameNumberConflict!] = 1;
  features[F.partnerExtraWords!] = name.extraA;
  features[F.referenceExtraWords!] = name.extraB;
  if (name.subPlace) features[F.subPlace!] = 1;
  if (differentKind) features[F.differentKind!] = 1;
  summary.differentKind = differentKind;
  summary.partnerExtra = name.aBeginsB ? 0 : 1;

  let distance: number | null = null;
  const lat = data.latitudes[hotel]!;
  if (!Number.isNaN(partner.lat) && !Number.isNaN(lat)) {
    distance = distanceMeters(partner.lat, partner.lon, lat, data.longitudes[hotel]!);
    writeHatBasis(distance, DISTANCE_KNOTS, features, DISTANCE_AT);
    // A name many places nearby carry (a chain, "Playground") agreeing says less than a unique
    // one: beyond the usual pin drift, the partner's place may be another outlet the reference lacks.
    if (name.similarity >= NAMESAKE_SIMILARITY && distance > 300) {
      features[F.namesakes!] = Math.log2(data.namesakeCounts[hotel]!) * Math.min(1, (distance - 300) / 300);
    }
  }

  const postalMatch = comparePostalCodes(partner.postalCode, textAt(data.postalCodes, hotel));
  if (postalMatch === true) {
    // A postcode many reference hotels share (a mall, a district) says less than one held by a
    // single hotel: the match counts 1 for a unique postcode, 1/2 when 4 share it, 1/3 for 16.
    const code = textAt(data.postalCodes, hotel);
    const country = data.countryOfHotel[hotel]!;
    index.postalRange(code, postalScratch);
    let sharing = 0;
    for (let k = postalScratch[0]!; k < postalScratch[1]!; k++) {
      const other = data.postalHotels[k]!;
      if (data.countryOfHotel[other] === country && textEquals(data.postalCodes, other, code)) sharing += 1;
    }
    sharing = Math.max(1, sharing);
    features[F.postalMatch!] = 1 / (1 + 0.5 * Math.log2(sharing));
  }
  else if (postalMatch === 'neighbour') features[F.postalNeighbour!] = 1;
  else if (postalMatch === false) features[F.postalMismatch!] = 1;

  const address = compareAddresses(partner.address, textAt(data.addressWords, hotel), textAt(data.addressNumbers, hotel));
  if (address.similarity !== null) {
    if (address.sameStreet) {
      features[F.streetMatch!] = 1;
      if (address.numbersAgree === true) features[F.houseNumberMatch!] = 1;
      else if (address.numbersAgree === false) features[F.houseNumberMismatch!] = 1;
    } else if (address.similarity < DIFFERENT_STREET_SIMILARITY) features[F.streetMismatch!] = 1;
  }

  let cityMatch: boolean | null = null;
  const city = data.cityOfHotel[hotel]!;
  if (partner.city !== '' && city !== 0) {
    cityMatch = partner.cityId === city;
    features[cityMatch ? F.cityMatch! : F.cityMismatch!] = 1;
  }

  let countryMatch: boolean | null = null;
  const country = data.countryOfHotel[hotel]!;
  if (partner.countryCode !== undefined && country !== 0) {
    countryMatch = partner.countryId === country;
    if (!countryMatch) features[F.countryMismatch!] = 1;
  }

  const rating = data.ratings[hotel]!;
  if (!Number.isNaN(partner.rating) && !Number.isNaN(rating)) {
    const difference = Math.abs(partner.rating - rating);
    features[difference < 0.5 ? F.ratingEqual! : difference < 1.5 ? F.ratingOneOff! : F.ratingFar!] = 1;
  }

  summary.nameSimilarity = name.similarity;
  summary.distance = distance;
  summary.addressSimilarity = address.similarity;
  summary.sameStreet = address.sameStreet;
  summary.numbersAgree = address.numbersAgree;
  summary.postal = postalMatch;
  summary.cityMatch = cityMatch;
  summary.countryMatch = countryMatch;
  return summary;
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** true: same postcode; 'neighbour': differs in the last character only; false: different; null: not comparable. */
function comparePostalCodes(partner: string, reference: string): boolean | 'neighbour' | null {
  if (partner === '' || reference === '') return null;
  // ZIP+4 against ZIP, or a postcode with its sector against one without.
  const shorter = partner.length <= reference.length ? partner : reference;
  const longer = partner.length <= reference.length ? reference : partner;
  if (longer.startsWith(shorter) && shorter.length >= 4) return true;
  const neighbour = partner.length === reference.length && partner.slice(0, -1) === reference.slice(0, -1);
  return neighbour ? 'neighbour' : false;
}

function compareAddresses(partner: AddressParts, referenceWords: string, referenceNumbers: string) {
  if (partner.words.length === 0 || referenceWords === '') return { similarity: null, sameStreet: false, numbersAgree: null };
  const similarity = fuzzyWordDice(partner.words, referenceWords.split(' '));
  let numbersAgree: boolean | null = null;
  if (partner.numbers.length > 0 && referenceNumbers !== '') {
    const numbers = referenceNumbers.split(' ');
    numbersAgree = partner.numbers.some((number) => numbers.includes(number));
  }
  return { similarity, sameStreet: similarity >= SAME_STREET_SIMILARITY, numbersAgree };
}
