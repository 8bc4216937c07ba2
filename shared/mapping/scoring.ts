/**
 * Full comparison of a partner hotel with one reference candidate: the evidence (name, distance,
 * address, postcode, city, country, rating) and a calibrated log-odds that they are the same hotel.
 *
 * Each piece of evidence adds a log-likelihood ratio, and a missing field adds nothing, so absent
 * data is never a penalty. The ratios are hand-set from what supplier data usually looks like
 * (not fitted to any one data set): see the tables below.
 */
import type { PartnerHotel } from '../domain/hotels';
import { toCountryCode } from './countries';
import { hasUsableCoordinates, nameSignatureText, type MatchingIndex } from './reference-index';
import { distanceMeters, fuzzyWordDice, SIGNATURE_WORDS, tokenSimilarity, writeTrigramSignature } from './similarity';
import { addressParts, isNumberToken, nameTokens, normalizeCity, normalizePostalCode, tokenKind, type AddressParts, type TokenKind } from './text';
import type { MatchEvidence } from './types';

/** A name's tokens with their ids in the reference vocabulary (-1 unknown) and weights. */
export interface NameView {
  /** Only the first `count` entries of texts, ids and weights are the name's (views may be reused buffers). */
  texts: string[];
  ids: Int32Array;
  weights: Float32Array;
  count: number;
  total: number;
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
  /** NaN when absent. */
  rating: number;
}

export function preparePartner(index: MatchingIndex, hotel: PartnerHotel): PreparedPartner {
  const texts = nameTokens(hotel.name);
  const ids = Int32Array.from(texts, (token) => index.tokenId(token));
  const weights = Float32Array.from(texts, (token, k) => index.tokenWeight(token, ids[k]!));
  const signature = new Uint32Array(SIGNATURE_WORDS);
  writeTrigramSignature(nameSignatureText(texts), signature, 0);
  const located = hasUsableCoordinates(hotel.lat, hotel.lon);
  const countryCode = toCountryCode(hotel.country);
  const city = normalizeCity(hotel.city);
  const address = addressParts(hotel.address ?? '');
  return {
    hotel,
    name: { texts, ids, weights, count: texts.length, total: sum(weights) },
    searchTokenIds: searchTokenIds(texts, ids),
    hasUnknownWord: ids.includes(-1),
    signature,
    lat: located ? hotel.lat! : Number.NaN,
    lon: located ? hotel.lon! : Number.NaN,
    countryCode,
    countryId: index.countryId(countryCode),
    city,
    cityId: index.cityId(city),
    postalCode: normalizePostalCode(hotel.postalCode),
    address,
    addressWordsText: address.words.join(' '),
    rating: hotel.rating ?? Number.NaN,
  };
}

function searchTokenIds(texts: readonly string[], ids: Int32Array): Int32Array {
  const known = (kinds: readonly TokenKind[]) => Int32Array.from(ids.filter((id, k) => id >= 0 && kinds.includes(tokenKind(texts[k]!))));
  const distinctive = known(['distinctive', 'number']);
  return distinctive.length > 0 ? distinctive : known(['generic', 'stop']);
}

function sum(values: Float32Array): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** A reference hotel's name as a NameView; written into `into` (a reusable buffer) when given. */
export function referenceNameView(index: MatchingIndex, hotel: number, into?: NameView): NameView {
  const { nameTokenOffsets, nameTokenIds, tokenWeights, vocabulary, nameWeightTotals } = index.data;
  const start = nameTokenOffsets[hotel]!;
  const count = nameTokenOffsets[hotel + 1]! - start;
  const view = into && into.ids.length >= count ? into : { texts: [], ids: new Int32Array(Math.max(count, 16)), weights: new Float32Array(Math.max(count, 16)), count: 0, total: 0 };
  for (let k = 0; k < count; k++) {
    const id = nameTokenIds[start + k]!;
    view.ids[k] = id;
    view.texts[k] = vocabulary[id]!;
    view.weights[k] = tokenWeights[id]!;
  }
  view.count = count;
  view.total = nameWeightTotals[hotel]!;
  return view;
}

/** An empty reusable NameView buffer for referenceNameView. */
export function nameViewBuffer(): NameView {
  return { texts: [], ids: new Int32Array(32), weights: new Float32Array(32), count: 0, total: 0 };
}

const candidateName = nameViewBuffer();

export interface NameComparison {
  /** 0..1: weight of the words both names share (typos and abbreviations partly) over all their weight. */
  similarity: number;
  /** Both names carry numbers and none agree ("Blk 701" / "Blk 704", "Hall 8" / "Hall 9"). */
  numberConflict: boolean;
}

// Names longer than this many words are compared on their first words only (bit masks below).
const MAX_COMPARED_WORDS = 30;

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
  const total = a.total + b.total + totalCorrection;
  return { similarity: total > 0 ? Math.min(1, shared / total) : 0, numberConflict: hasNumberConflict(a, b) };
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

/** Piecewise-linear interpolation through (xs[i], ys[i]); flat beyond the ends. */
function interpolate(x: number, xs: readonly number[], ys: readonly number[]): number {
  if (x <= xs[0]!) return ys[0]!;
  for (let i = 1; i < xs.length; i++) {
    if (x <= xs[i]!) {
      const t = (x - xs[i - 1]!) / (xs[i]! - xs[i - 1]!);
      return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
    }
  }
  return ys[ys.length - 1]!;
}

// Log-likelihood ratios. Names: below ~0.65 similarity two names are more likely different places.
const NAME_SIMILARITY = [0, 0.3, 0.5, 0.65, 0.8, 0.9, 1];
const NAME_LOG_ODDS = [-6, -4, -2, 0, 2, 3.2, 4.2];
// Distance: suppliers' pins for one hotel are usually within 100-250 m, rarely beyond 1 km.
const DISTANCE_METERS = [0, 30, 100, 250, 500, 1000, 2000, 5000, 20000];
const DISTANCE_LOG_ODDS = [2.5, 2.3, 1.8, 1.0, 0, -1.2, -2.5, -4, -6];
/** Prior log-odds that a candidate found by blocking is the partner hotel, before any evidence. */
const BASE_LOG_ODDS = -2;
const NUMBER_CONFLICT_LOG_ODDS = -2;
const POSTAL_MATCH_LOG_ODDS = 1.5;
const POSTAL_NEIGHBOUR_LOG_ODDS = -0.3;
const POSTAL_MISMATCH_LOG_ODDS = -2;
const STREET_MATCH_LOG_ODDS = 1;
const STREET_MISMATCH_LOG_ODDS = -1.5;
const HOUSE_NUMBER_MATCH_LOG_ODDS = 1;
const HOUSE_NUMBER_MISMATCH_LOG_ODDS = -1;
const CITY_MATCH_LOG_ODDS = 0.3;
const CITY_MISMATCH_LOG_ODDS = -0.8;
const COUNTRY_MISMATCH_LOG_ODDS = -5;
const RATING_EQUAL_LOG_ODDS = 0.2;
const RATING_ONE_OFF_LOG_ODDS = -0.3;
const RATING_FAR_LOG_ODDS = -1;

export interface ScoredCandidate {
  hotel: number;
  evidence: MatchEvidence;
  /** Log-odds that this candidate alone is the partner hotel. */
  logOdds: number;
}

export function scoreCandidate(index: MatchingIndex, partner: PreparedPartner, hotel: number): ScoredCandidate {
  const data = index.data;
  const name = compareNames(partner.name, referenceNameView(index, hotel, candidateName));
  let logOdds = BASE_LOG_ODDS + interpolate(name.similarity, NAME_SIMILARITY, NAME_LOG_ODDS);
  if (name.numberConflict) logOdds += NUMBER_CONFLICT_LOG_ODDS;

  let distance: number | null = null;
  const lat = data.latitudes[hotel]!;
  if (!Number.isNaN(partner.lat) && !Number.isNaN(lat)) {
    distance = distanceMeters(partner.lat, partner.lon, lat, data.longitudes[hotel]!);
    logOdds += interpolate(distance, DISTANCE_METERS, DISTANCE_LOG_ODDS);
  }

  const postal = comparePostalCodes(partner.postalCode, data.postalCodes[hotel]!);
  logOdds += postal.logOdds;

  const address = compareAddresses(partner.address, data.addressWords[hotel]!, data.addressNumbers[hotel]!);
  logOdds += address.logOdds;

  let cityMatch: boolean | null = null;
  const city = data.cityOfHotel[hotel]!;
  if (partner.city !== '' && city !== 0) {
    cityMatch = partner.cityId === city;
    logOdds += cityMatch ? CITY_MATCH_LOG_ODDS : CITY_MISMATCH_LOG_ODDS;
  }

  let countryMatch: boolean | null = null;
  const country = data.countryOfHotel[hotel]!;
  if (partner.countryCode !== undefined && country !== 0) {
    countryMatch = partner.countryId === country;
    if (!countryMatch) logOdds += COUNTRY_MISMATCH_LOG_ODDS;
  }

  const rating = data.ratings[hotel]!;
  if (!Number.isNaN(partner.rating) && !Number.isNaN(rating)) {
    const difference = Math.abs(partner.rating - rating);
    logOdds += difference < 0.5 ? RATING_EQUAL_LOG_ODDS : difference < 1.5 ? RATING_ONE_OFF_LOG_ODDS : RATING_FAR_LOG_ODDS;
  }

  return {
    hotel,
    logOdds,
    evidence: {
      nameSimilarity: round(name.similarity, 3),
      distanceMeters: distance === null ? null : Math.round(distance),
      addressMatch: address.match,
      addressSimilarity: address.similarity === null ? null : round(address.similarity, 3),
      postalCodeMatch: postal.match,
      cityMatch,
      countryMatch,
    },
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function comparePostalCodes(partner: string, reference: string): { match: boolean | null; logOdds: number } {
  if (partner === '' || reference === '') return { match: null, logOdds: 0 };
  // ZIP+4 against ZIP, or a postcode with its sector against one without.
  const shorter = partner.length <= reference.length ? partner : reference;
  const longer = partner.length <= reference.length ? reference : partner;
  if (longer.startsWith(shorter) && shorter.length >= 4) return { match: true, logOdds: POSTAL_MATCH_LOG_ODDS };
  const neighbour = partner.length === reference.length && partner.slice(0, -1) === reference.slice(0, -1);
  return { match: false, logOdds: neighbour ? POSTAL_NEIGHBOUR_LOG_ODDS : POSTAL_MISMATCH_LOG_ODDS };
}

function compareAddresses(partner: AddressParts, referenceWords: string, referenceNumbers: string) {
  if (partner.words.length === 0 || referenceWords === '') {
    return { match: null, similarity: null, logOdds: 0 };
  }
  const similarity = fuzzyWordDice(partner.words, referenceWords.split(' '));
  const sameStreet = similarity >= 0.6;
  let logOdds = sameStreet ? STREET_MATCH_LOG_ODDS : similarity < 0.3 ? STREET_MISMATCH_LOG_ODDS : 0;
  let numbersAgree: boolean | null = null;
  if (partner.numbers.length > 0 && referenceNumbers !== '') {
    const numbers = referenceNumbers.split(' ');
    numbersAgree = partner.numbers.some((number) => numbers.includes(number));
    if (sameStreet) logOdds += numbersAgree ? HOUSE_NUMBER_MATCH_LOG_ODDS : HOUSE_NUMBER_MISMATCH_LOG_ODDS;
  }
  return { match: sameStreet && numbersAgree !== false, similarity, logOdds };
}
