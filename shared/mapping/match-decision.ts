/**
 * The match decision: the probability that a candidate is the partner's place, from the match
 * model (match-model.json: boosted trees fitted to labelled real data by `npm run train:matcher`)
 * over what the engine knows about the pair and about its neighbourhood. Each feature is a plain
 * figure a reviewer can read: how alike the names are and in which words, how rare the words they
 * share and the words only one has, distance, address, postcode, city, country, how the best rival
 * compares, and how many namesakes stand near the pin.
 */
import modelFile from './match-model.json' with { type: 'json' };
import { CompiledTrees, type BoostedTrees } from './boosted-trees';
import type { ScoredCandidate } from './candidate-evidence';
import { Competition } from './competition';
import { MAX_COMPARED_WORDS, nameViewBuffer, referenceNameView, type NameView } from './name-comparison';
import type { PreparedPartner } from './partner-row';
import type { MatchingIndex } from './matching-index';
import { signatureSimilarity, SIGNATURE_WORDS } from './similarity';
import { LEVENSHTEIN_MAX_LENGTH, levenshteinDistance } from '../platform/text';
import { tokenKind } from './text';

/** The features the model reads, in vector order. */
export const DECISION_FEATURES = [
  // the names
  'nameSimilarity',
  'nameTrigramSimilarity',
  'nameEditSimilarity',
  'nameWordOverlap',
  'exactName',
  'partnerNameContained',
  'referenceNameContained',
  'sharedWords',
  'rarestSharedWordFrequency',
  'rarestPartnerExtraWordFrequency',
  'rarestReferenceExtraWordFrequency',
  'firstWordEqual',
  'nameNumberConflict',
  'subPlace',
  'differentKind',
  'partnerWords',
  'referenceWords',
  // the place
  'distance',
  'postcode',
  'postcodeSharing',
  'streetSimilarity',
  'houseNumberAgrees',
  'city',
  'country',
  'ratingDifference',
  'namesakes',
  // the neighbourhood
  'evidenceLogOdds',
  'rank',
  'candidates',
  'margin',
  'rivalLogOdds',
  'rivalNameSimilarity',
  'rivalDistance',
  'oddsShare',
  'namesakeCandidates',
  'nearerNamesakeCandidates',
  'distanceRank',
  'partnerHasPin',
  'partnerHasAddress',
  'partnerHasPostcode',
  'chainOutlet',
  // the evidence's own view of the competition (competition.ts)
  'competitionProbability',
  'partOfTheRow',
  'outletBeyondReach',
] as const;

export type DecisionFeature = (typeof DECISION_FEATURES)[number];
const at = Object.fromEntries(DECISION_FEATURES.map((name, position) => [name, position])) as Record<DecisionFeature, number>;

/** The committed model: the trees, and the MATCHED and REVIEW thresholds chosen with them. */
export interface MatchModel extends BoostedTrees {
  /** MATCHED from this probability: the one that maximised leave-one-set-out F1. */
  matchThreshold: number;
  /** REVIEW from this probability up to matchThreshold; below it UNMATCHED. */
  reviewThreshold: number;
  /** How it was fitted: the sets and the boosting options (for the record). */
  training?: Record<string, unknown>;
}

/**
 * A model that reads the features the engine writes and knows nothing (every candidate at even
 * odds): what training computes features with, so that a change of features never needs the
 * committed model to match first.
 */
export function untrainedModel(): MatchModel {
  return { features: [...DECISION_FEATURES], base: 0, trees: [], matchThreshold: 0.5, reviewThreshold: 0.1 };
}

/** The committed match model (shared/mapping/match-model.json). */
export const MATCH_MODEL: MatchModel = modelFile;

/** How many of the best-ranked candidates the model weighs at most. */
export const ASSESSED_CANDIDATES = 4;
/**
 * Candidates whose evidence log-odds trail the best's by more than this are not weighed (e^-6:
 * 400 times less likely on the evidence); most rows have one such clear candidate.
 */
const ASSESSED_LOG_ODDS_GAP = 6;

/** Names at least this alike (and within NAMESAKE_TOLERANCE of each other) are namesakes among the candidates. */
const NAMESAKE_SIMILARITY = 0.9;
const NAMESAKE_TOLERANCE = 0.05;
/** Names run together are compared on their first this many characters (the edit distance's one-word pattern). */
const EDIT_COMPARED_CHARACTERS = LEVENSHTEIN_MAX_LENGTH;

/**
 * Why a candidate is never MATCHED, however likely the model finds it: the row's place with a
 * part's or neighbour's word before or after it ("Cashew Heights Gym" for "Cashew Heights"), or a
 * chain outlet too far from the pin, in a dense chain, to rule out one the reference lacks. Both
 * cost nothing measurable on the labelled sets (see shared/mapping/README.md) and keep the chain and
 * sub-place scenarios where the evidence rules put them.
 */
export type Veto = 'part of the row' | 'outlet beyond reach';

export function vetoOf(vector: Float64Array): Veto | undefined {
  if (vector[at.partOfTheRow] === 1) return 'part of the row';
  if (vector[at.outletBeyondReach] === 1) return 'outlet beyond reach';
  return undefined;
}

/** onePlace of a lone candidate. */
const LONE: readonly (readonly boolean[])[] = [[false]];

/** A row's candidates as the model weighs them. */
export interface Assessment {
  /** The assessed candidates, best evidence first (at most ASSESSED_CANDIDATES, within ASSESSED_LOG_ODDS_GAP of the best). */
  candidates: ScoredCandidate[];
  /** The probability of each, same order (shared among them: see shareProbabilities). */
  probabilities: number[];
  /** What keeps each from MATCHED, same order. */
  vetoes: (Veto | undefined)[];
  /** onePlace[i][j]: candidates i and j are one place listed twice in the reference. */
  onePlace: readonly (readonly boolean[])[];
}

/** A rival, another place, at least this share of the likeliest candidate's probability makes the row ambiguous. */
export const AMBIGUOUS_RIVAL_SHARE = 0.75;

export interface Choice {
  /** Position of the likeliest candidate (the better-ranked among equals); -1 when there is none. */
  best: number;
  /** At or above the MATCHED threshold, with no veto and no rival nearly as likely. */
  matched: boolean;
  veto: Veto | undefined;
  /** How many other places are nearly as likely (AMBIGUOUS_RIVAL_SHARE). */
  rivals: number;
}

/** The decision on a row's assessed candidates; the engine and the training replay both take it. */
export function choose(
  probabilities: readonly number[],
  vetoes: readonly (Veto | undefined)[],
  onePlace: readonly (readonly boolean[])[],
  matchThreshold: number,
): Choice {
  let best = -1;
  for (let k = 0; k < probabilities.length; k++) if (best < 0 || probabilities[k]! > probabilities[best]!) best = k;
  if (best < 0) return { best, matched: false, veto: undefined, rivals: 0 };
  let rivals = 0;
  for (let k = 0; k < probabilities.length; k++) {
    if (k !== best && !onePlace[best]![k] && probabilities[k]! >= AMBIGUOUS_RIVAL_SHARE * probabilities[best]!) rivals += 1;
  }
  const veto = vetoes[best];
  return { best, matched: probabilities[best]! >= matchThreshold && veto === undefined && rivals === 0, veto, rivals };
}

export class MatchDecision {
  readonly model: MatchModel;
  private readonly trees: CompiledTrees;
  private readonly vectors = Array.from({ length: ASSESSED_CANDIDATES }, () => new Float64Array(DECISION_FEATURES.length));
  private readonly referenceName = nameViewBuffer();
  private readonly competition: Competition;

  constructor(
    private readonly index: MatchingIndex,
    model: MatchModel = MATCH_MODEL,
  ) {
    const expected = DECISION_FEATURES.join(',');
    if (model.features.join(',') !== expected)
      throw new Error(
        `The match model reads features [${model.features.join(', ')}], the engine writes [${expected}]: train it again (npm run train:matcher).`,
      );
    this.model = model;
    this.trees = new CompiledTrees(model);
    this.competition = new Competition(index);
  }

  assess(partner: PreparedPartner, ranked: readonly ScoredCandidate[], outlets: ReadonlySet<number> | undefined): Assessment {
    const vectors = this.featureVectors(partner, ranked, outlets, this.vectors);
    const candidates = ranked.slice(0, vectors.length);
    const alone = vectors.map((vector) => this.trees.probability(vector));
    const onePlace = this.onePlace(candidates.length);
    return { candidates, probabilities: shareProbabilities(alone, onePlace), vetoes: vectors.map(vetoOf), onePlace };
  }

  /** onePlace[i][j]: the row's candidates i and j (of the last featureVectors call) are one place listed twice in the reference. */
  onePlace(count: number): readonly (readonly boolean[])[] {
    if (count === 1) return LONE;
    const matrix: boolean[][] = [];
    for (let i = 0; i < count; i++) {
      const row: boolean[] = [];
      for (let j = 0; j < count; j++) row.push(i !== j && this.competition.areOnePlace(i, j));
      matrix.push(row);
    }
    return matrix;
  }

  /**
   * The feature vectors of the best-ranked candidates, written into `into` (reused buffers) and
   * returned, one per assessed candidate.
   */
  featureVectors(
    partner: PreparedPartner,
    ranked: readonly ScoredCandidate[],
    outlets: ReadonlySet<number> | undefined,
    into: Float64Array[],
  ): Float64Array[] {
    let count = 0;
    while (
      count < Math.min(ranked.length, ASSESSED_CANDIDATES, into.length) &&
      ranked[count]!.logOdds >= ranked[0]!.logOdds - ASSESSED_LOG_ODDS_GAP
    )
      count += 1;
    if (count === 0) return [];
    const row = this.rowFacts(partner, ranked);
    this.competition.forRow(ranked, outlets);
    for (let k = 0; k < count; k++) this.writeCandidate(partner, ranked, k, outlets, row, into[k]!);
    return into.slice(0, count);
  }

  private rowFacts(partner: PreparedPartner, ranked: readonly ScoredCandidate[]): RowFacts {
    let totalOdds = 0;
    for (const candidate of ranked) totalOdds += Math.exp(candidate.logOdds);
    return { totalOdds, compactName: compactName(partner.name), firstWord: firstDistinctiveWord(partner.name) };
  }

  private writeCandidate(
    partner: PreparedPartner,
    ranked: readonly ScoredCandidate[],
    k: number,
    outlets: ReadonlySet<number> | undefined,
    row: RowFacts,
    x: Float64Array,
  ): void {
    const candidate = ranked[k]!;
    const { facts } = candidate;
    const { names } = facts;
    const data = this.index.data;
    const reference = referenceNameView(this.index, candidate.hotel, this.referenceName);
    const partnerName = partner.name;

    x[at.nameSimilarity] = names.similarity;
    x[at.nameTrigramSimilarity] = signatureSimilarity(partner.signature, 0, data.nameSignatures, candidate.hotel * SIGNATURE_WORDS);
    const referenceCompactName = compactName(reference);
    x[at.nameEditSimilarity] = editSimilarity(row.compactName, referenceCompactName);
    const partnerWords = this.wordSummary(partnerName, names.matchedA);
    const referenceWords = this.wordSummary(reference, names.matchedB);
    x[at.nameWordOverlap] = referenceWords.matched / Math.max(1, partnerWords.words + referenceWords.words - referenceWords.matched);
    x[at.exactName] = row.compactName === referenceCompactName ? 1 : 0;
    x[at.partnerNameContained] = partnerWords.extra === 0 ? 1 : 0;
    x[at.referenceNameContained] = referenceWords.extra === 0 ? 1 : 0;
    x[at.sharedWords] = referenceWords.matched;
    x[at.rarestSharedWordFrequency] = referenceWords.rarestMatched;
    x[at.rarestPartnerExtraWordFrequency] = partnerWords.rarestExtra;
    x[at.rarestReferenceExtraWordFrequency] = referenceWords.rarestExtra;
    x[at.firstWordEqual] = row.firstWord !== undefined && row.firstWord === firstDistinctiveWord(reference) ? 1 : 0;
    x[at.nameNumberConflict] = names.numberConflict ? 1 : 0;
    x[at.subPlace] = names.subPlace ? 1 : 0;
    x[at.differentKind] = candidate.differentKind === undefined ? 0 : 1;
    x[at.partnerWords] = partnerWords.words;
    x[at.referenceWords] = referenceWords.words;

    x[at.distance] = logDistance(facts.distanceMeters);
    x[at.postcode] = facts.postal === null ? Number.NaN : facts.postal === true ? 1 : facts.postal === 'neighbour' ? 0.5 : 0;
    x[at.postcodeSharing] = facts.postal === true ? Math.log2(Math.max(1, facts.postalSharing)) : Number.NaN;
    x[at.streetSimilarity] = facts.addressSimilarity ?? Number.NaN;
    x[at.houseNumberAgrees] = facts.numbersAgree === null ? Number.NaN : facts.numbersAgree ? 1 : 0;
    x[at.city] = facts.cityMatch === null ? Number.NaN : facts.cityMatch ? 1 : 0;
    x[at.country] = facts.countryMatch === null ? Number.NaN : facts.countryMatch ? 1 : 0;
    x[at.ratingDifference] = facts.ratingDifference;
    x[at.namesakes] = Math.log2(Math.max(1, data.namesakeCounts[candidate.hotel]!));

    let rival: ScoredCandidate | undefined;
    let namesakes = 0;
    let nearerNamesakes = 0;
    let nearer = 0;
    for (const other of ranked) {
      if (other === candidate) continue;
      if (rival === undefined || other.logOdds > rival.logOdds) rival = other;
      if (other.distanceMeters !== null && candidate.distanceMeters !== null && other.distanceMeters < candidate.distanceMeters)
        nearer += 1;
      if (other.nameSimilarity >= NAMESAKE_SIMILARITY && Math.abs(other.nameSimilarity - candidate.nameSimilarity) <= NAMESAKE_TOLERANCE) {
        namesakes += 1;
        if (other.distanceMeters !== null && candidate.distanceMeters !== null && other.distanceMeters < candidate.distanceMeters)
          nearerNamesakes += 1;
      }
    }
    x[at.evidenceLogOdds] = candidate.logOdds;
    x[at.rank] = k;
    x[at.candidates] = ranked.length;
    x[at.margin] = rival === undefined ? Number.NaN : candidate.logOdds - rival.logOdds;
    x[at.rivalLogOdds] = rival === undefined ? Number.NaN : rival.logOdds;
    x[at.rivalNameSimilarity] = rival === undefined ? Number.NaN : rival.nameSimilarity;
    x[at.rivalDistance] = rival === undefined ? Number.NaN : logDistance(rival.distanceMeters);
    x[at.oddsShare] = Math.exp(candidate.logOdds) / (1 + row.totalOdds);
    x[at.namesakeCandidates] = namesakes;
    x[at.nearerNamesakeCandidates] = nearerNamesakes;
    x[at.distanceRank] = candidate.distanceMeters === null ? Number.NaN : nearer;
    x[at.partnerHasPin] = Number.isNaN(partner.lat) ? 0 : 1;
    x[at.partnerHasAddress] = partner.address.words.length > 0 ? 1 : 0;
    x[at.partnerHasPostcode] = partner.postalCode === '' ? 0 : 1;
    x[at.chainOutlet] = outlets === undefined ? Number.NaN : outlets.has(candidate.hotel) ? 1 : 0;
    x[at.competitionProbability] = this.competition.probability(k);
    x[at.partOfTheRow] = this.competition.namesAPartOfTheRow(partner, candidate) ? 1 : 0;
    x[at.outletBeyondReach] = outlets === undefined ? Number.NaN : Competition.mayBeAnUnlistedOutlet(candidate, ranked, outlets) ? 1 : 0;
  }

  /** A name's words (stop words left out): how many, how many found a counterpart, and what the others are. */
  private wordSummary(name: NameView, matched: number): WordSummary {
    const { postingOffsets } = this.index.data;
    const summary: WordSummary = { words: 0, matched: 0, extra: 0, rarestMatched: Number.NaN, rarestExtra: Number.NaN };
    let rarestMatched = Infinity;
    let rarestExtra = Infinity;
    const count = Math.min(name.count, MAX_COMPARED_WORDS);
    for (let i = 0; i < count; i++) {
      if (tokenKind(name.texts[i]!) === 'stop') continue;
      const id = name.ids[i]!;
      // How many reference names carry the word (1 for a word the reference lacks).
      const frequency = id < 0 ? 1 : Math.max(1, postingOffsets[id + 1]! - postingOffsets[id]!);
      summary.words += 1;
      if ((matched >>> i) & 1) {
        summary.matched += 1;
        rarestMatched = Math.min(rarestMatched, frequency);
      } else {
        summary.extra += 1;
        rarestExtra = Math.min(rarestExtra, frequency);
      }
    }
    if (rarestMatched !== Infinity) summary.rarestMatched = Math.log2(rarestMatched);
    if (rarestExtra !== Infinity) summary.rarestExtra = Math.log2(rarestExtra);
    return summary;
  }
}

interface RowFacts {
  totalOdds: number;
  compactName: string;
  /** The partner name's first distinctive word. */
  firstWord: string | undefined;
}

interface WordSummary {
  words: number;
  matched: number;
  extra: number;
  /** log2 of how many reference names carry the rarest matched / extra word; NaN when none. */
  rarestMatched: number;
  rarestExtra: number;
}

/**
 * At most one of a row's candidates is the partner's place, unless two are one place listed twice.
 * The model weighs each candidate on its own; here their odds compete, with "none of them" at even
 * odds: P(i) = o(i) / (1 + o(i) + the odds of every candidate that is another place), o = p / (1 - p).
 * A lone candidate keeps its probability; two equally likely outlets 150 m apart each get under
 * half, and a clearly stronger one keeps most of its own.
 */
export function shareProbabilities(alone: readonly number[], onePlace: readonly (readonly boolean[])[]): number[] {
  if (alone.length < 2) return [...alone];
  const odds = alone.map((probability) => probability / Math.max(1e-12, 1 - probability));
  return alone.map((probability, i) => {
    let rivals = 0;
    for (let j = 0; j < alone.length; j++) if (j !== i && !onePlace[i]![j]) rivals += odds[j]!;
    return rivals === 0 ? probability : odds[i]! / (1 + odds[i]! + rivals);
  });
}

/** log10(1 + metres): distances matter by their order of magnitude. NaN without pins. */
function logDistance(meters: number | null): number {
  return meters === null ? Number.NaN : Math.log10(1 + meters);
}

/** The name's words run together ("ONE15 Marina" and "One 15 Marina" alike). */
function compactName(name: NameView): string {
  let text = '';
  for (let i = 0; i < name.count && text.length < EDIT_COMPARED_CHARACTERS; i++) text += name.texts[i]!;
  return text.slice(0, EDIT_COMPARED_CHARACTERS);
}

/** 1 - Levenshtein distance / longer length, of the names run together. */
function editSimilarity(a: string, b: string): number {
  if (a === b) return a.length === 0 ? Number.NaN : 1;
  return 1 - levenshteinDistance(a, b) / Math.max(a.length, b.length);
}

function firstDistinctiveWord(name: NameView): string | undefined {
  for (let i = 0; i < name.count; i++) if (tokenKind(name.texts[i]!) === 'distinctive') return name.texts[i];
  return undefined;
}
