/**
 * Full comparison of a partner hotel with one reference candidate: the evidence (name, distance,
 * address, postcode, city, country, rating) and the evidence log-odds that rank candidates.
 *
 * Each piece of evidence adds a log-likelihood ratio, and a missing field adds nothing, so absent
 * data is never a penalty. The ratios are hand-set from what supplier data usually looks like
 * (not fitted to any one data set): see the tables below. They rank the candidates blocking finds;
 * whether the best of them is the partner hotel is the match model's call (match-decision.ts).
 */
import { textAt, textEquals } from './columns';
import { compareNames, extraKind, nameViewBuffer, referenceNameView, type NameComparison } from './name-comparison';
import type { PreparedPartner } from './partner-row';
import type { MatchingIndex } from './matching-index';
import { distanceMeters, fuzzyWordDice } from './similarity';
import type { AddressParts } from './text';
import type { MatchEvidence } from './types';

const candidateName = nameViewBuffer();

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
 * Log-likelihood ratio of each feature, hand-set from what supplier data usually looks like. They
 * rank candidates (and the match model reads their sum); they decide nothing on their own.
 */
export const FEATURE_WEIGHTS = Float64Array.from([
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
]);

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

/**
 * What comparing a partner row with one reference hotel found: the evidence log-odds that rank
 * candidates, and the raw comparisons behind it, which the match model reads and the evidence
 * object reports.
 */
export class ScoredCandidate implements ComparisonFacts {
  readonly names: NameComparison;
  readonly nameSimilarity: number;
  readonly distanceMeters: number | null;
  readonly addressSimilarity: number | null;
  readonly sameStreet: boolean;
  readonly numbersAgree: boolean | null;
  readonly postal: boolean | 'neighbour' | null;
  readonly postalSharing: number;
  readonly cityMatch: boolean | null;
  readonly countryMatch: boolean | null;
  readonly ratingDifference: number;

  /** `facts` are copied: a scratch object may be passed (one object per candidate, not two). */
  constructor(
    readonly hotel: number,
    /** Evidence log-odds that this candidate alone is the partner hotel (ranks candidates). */
    readonly logOdds: number,
    facts: ComparisonFacts,
    /** A word one name adds that names a different kind of place, for the reviewer (place-kinds.ts). */
    readonly differentKind: string | undefined,
  ) {
    this.names = facts.names;
    this.nameSimilarity = facts.nameSimilarity;
    this.distanceMeters = facts.distanceMeters;
    this.addressSimilarity = facts.addressSimilarity;
    this.sameStreet = facts.sameStreet;
    this.numbersAgree = facts.numbersAgree;
    this.postal = facts.postal;
    this.postalSharing = facts.postalSharing;
    this.cityMatch = facts.cityMatch;
    this.countryMatch = facts.countryMatch;
    this.ratingDifference = facts.ratingDifference;
  }

  /** The raw comparisons behind the log-odds (the match model reads them). */
  get facts(): ComparisonFacts {
    return this;
  }

  /** The partner's name begins the candidate's ("Caffe Nero" of "Caffe Nero Raffles Place"): an outlet of the chain the row names. */
  get containsPartnerName(): boolean {
    return this.names.aBeginsB;
  }

  /**
   * The same candidate as an outlet of the chain the row names (the matcher's chain rule): other
   * log-odds, and its extra words say where the outlet is, not another kind of place.
   */
  asOutlet(logOdds: number): ScoredCandidate {
    return new ScoredCandidate(this.hotel, logOdds, this, undefined);
  }

  get evidence(): MatchEvidence {
    return {
      nameSimilarity: this.nameSimilarity,
      distanceMeters: this.distanceMeters,
      addressMatch: this.addressSimilarity === null ? null : this.sameStreet && this.numbersAgree !== false,
      addressSimilarity: this.addressSimilarity === null ? null : round(this.addressSimilarity, 3),
      postalCodeMatch: this.postal === null ? null : this.postal === true,
      cityMatch: this.cityMatch,
      countryMatch: this.countryMatch,
    };
  }
}

/** The raw comparisons of a partner row with one candidate. */
export interface ComparisonFacts {
  names: NameComparison;
  /** names.similarity rounded to 3 decimals, as reported. */
  nameSimilarity: number;
  /** Rounded to the metre; null when a side has no pin. */
  distanceMeters: number | null;
  addressSimilarity: number | null;
  sameStreet: boolean;
  numbersAgree: boolean | null;
  /** true: same postcode; 'neighbour': differs in the last character; false: different; null: not comparable. */
  postal: boolean | 'neighbour' | null;
  /** Reference hotels of the country with this postcode (when postal is true), else 0. */
  postalSharing: number;
  cityMatch: boolean | null;
  countryMatch: boolean | null;
  /** Star ratings' difference; NaN when a side has none. */
  ratingDifference: number;
}

const scratchFeatures = new Float64Array(FEATURE_COUNT);
/** Written by writeFeatures for each comparison, copied into its ScoredCandidate. */
const scratchFacts: ComparisonFacts = {
  names: undefined as unknown as NameComparison,
  nameSimilarity: 0,
  distanceMeters: null,
  addressSimilarity: null,
  sameStreet: false,
  numbersAgree: null,
  postal: null,
  postalSharing: 0,
  cityMatch: null,
  countryMatch: null,
  ratingDifference: Number.NaN,
};
const postalScratch = new Uint32Array(2);

export function scoreCandidate(
  index: MatchingIndex,
  partner: PreparedPartner,
  hotel: number,
  weights: Float64Array = FEATURE_WEIGHTS,
): ScoredCandidate {
  const facts = writeFeatures(index, partner, hotel, scratchFeatures);
  let logOdds = 0;
  for (let k = 0; k < FEATURE_COUNT; k++) logOdds += scratchFeatures[k]! * weights[k]!;
  // The kind-of-place check costs more than every other feature together and can only lower a
  // score: it runs for candidates plausible without it (the rest could not be chosen anyway).
  let differentKind: string | undefined;
  if (logOdds > KIND_CHECK_MIN_LOG_ODDS && facts.names.similarity >= KIND_CHECK_SIMILARITY) {
    differentKind = extraKind(partner.name, candidateName, facts.names);
    if (differentKind) logOdds += weights[F.differentKind!]!;
  }
  return new ScoredCandidate(hotel, logOdds, facts, differentKind);
}

/** The log-odds a name similarity adds on its own (its knots' weights, interpolated). */
export function nameLogOdds(similarity: number, weights: Float64Array = FEATURE_WEIGHTS): number {
  writeHatBasis(similarity, NAME_SIMILARITY_KNOTS, nameScratch, 0);
  let odds = 0;
  for (let k = 0; k < NAME_SIMILARITY_KNOTS.length; k++) odds += nameScratch[k]! * weights[NAME_AT + k]!;
  return odds;
}

const nameScratch = new Float64Array(NAME_SIMILARITY_KNOTS.length);

/**
 * Writes the candidate's evidence features (FEATURE_COUNT long, the kind-of-place one left to
 * scoreCandidate) into `features` and the comparisons behind them into the scratch facts, which it
 * returns. `candidateName` holds the candidate's name afterwards.
 */
function writeFeatures(index: MatchingIndex, partner: PreparedPartner, hotel: number, features: Float64Array): ComparisonFacts {
  const data = index.data;
  features.fill(0);
  features[0] = 1;
  const candidateView = referenceNameView(index, hotel, candidateName);
  const name = compareNames(partner.name, candidateView);
  writeHatBasis(name.similarity, NAME_SIMILARITY_KNOTS, features, NAME_AT);
  if (name.numberConflict) features[F.nameNumberConflict!] = 1;
  features[F.partnerExtraWords!] = name.extraA;
  features[F.referenceExtraWords!] = name.extraB;
  if (name.subPlace) features[F.subPlace!] = 1;

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
  let sharing = 0;
  if (postalMatch === true) {
    // A postcode many reference hotels share (a mall, a district) says less than one held by a
    // single hotel: the match counts 1 for a unique postcode, 1/2 when 4 share it, 1/3 for 16.
    const code = textAt(data.postalCodes, hotel);
    const country = data.countryOfHotel[hotel]!;
    index.postalRange(code, postalScratch);
    for (let k = postalScratch[0]!; k < postalScratch[1]!; k++) {
      const other = data.postalHotels[k]!;
      if (data.countryOfHotel[other] === country && textEquals(data.postalCodes, other, code)) sharing += 1;
    }
    sharing = Math.max(1, sharing);
    features[F.postalMatch!] = 1 / (1 + 0.5 * Math.log2(sharing));
  } else if (postalMatch === 'neighbour') features[F.postalNeighbour!] = 1;
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

  const ratingDifference = Math.abs(partner.rating - data.ratings[hotel]!);
  if (!Number.isNaN(ratingDifference)) {
    features[ratingDifference < 0.5 ? F.ratingEqual! : ratingDifference < 1.5 ? F.ratingOneOff! : F.ratingFar!] = 1;
  }

  const facts = scratchFacts;
  facts.names = name;
  facts.nameSimilarity = round(name.similarity, 3);
  facts.distanceMeters = distance === null ? null : Math.round(distance);
  facts.addressSimilarity = address.similarity;
  facts.sameStreet = address.sameStreet;
  facts.numbersAgree = address.numbersAgree;
  facts.postal = postalMatch;
  facts.postalSharing = sharing;
  facts.cityMatch = cityMatch;
  facts.countryMatch = countryMatch;
  facts.ratingDifference = ratingDifference;
  return facts;
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
