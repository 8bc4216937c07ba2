/**
 * How a candidate stands against the others the evidence found, as the evidence alone sees it:
 * the share of the odds it keeps once its rivals are weighed (a rival that is the same place listed
 * twice is none; a namesake farther from the pin counts less), and two plain signs that it may be
 * the wrong place however well it scores: it is the row's place with the word for a part or a
 * neighbour before or after it, or it is a chain outlet too far from the pin to rule out an outlet
 * the reference lacks. The match model reads all three.
 */
import { textAt, textEquals, textIsEmpty } from './columns';
import type { ScoredCandidate } from './candidate-evidence';
import { compareNames, nameViewBuffer, referenceNameView } from './name-comparison';
import type { PreparedPartner } from './partner-row';
import { namesAPartOrNeighbour } from './place-kinds';
import type { MatchingIndex } from './matching-index';
import { approximateDistanceMeters } from './similarity';

/**
 * How much each rival after the strongest counts: how many weaker look-alikes get scored is an
 * artefact of blocking, and at most one of them can be the place anyway.
 */
const WEAKER_RIVAL_SHARE = 0.25;
/** Two reference hotels this alike in name, and this near, are one place listed twice. */
const DUPLICATE_NAME_SIMILARITY = 0.85;
const DUPLICATE_DISTANCE_METERS = 150;
/** Two outlets of the chain a row names are one place listed twice only this near: downtown, outlets stand a block apart. */
const SAME_OUTLET_METERS = 50;
/** Two reference names at least this alike are namesakes (outlets of one chain, one name). */
const NAMESAKE_NAME_SIMILARITY = 0.9;
/** The partner's name fits both namesakes within this much: the name cannot tell them apart. */
const NAMESAKE_NAME_TOLERANCE = 0.05;
/**
 * Typical distance between a partner's pin and the place: nearness counts as a ratio of distances
 * padded by it, so 5 m against 40 m is not read as 8 to 1.
 */
const PIN_DRIFT_METERS = 30;
/** How sharply the farther namesake fades: ((near + drift) / (far + drift))^3. */
const NAMESAKE_DISTANCE_POWER = 3;
/** A chain outlet farther than this from the pin, with another outlet within DENSE_CHAIN_METERS, may not be the partner's. */
const OUTLET_REACH_METERS = 100;
const DENSE_CHAIN_METERS = 500;

/** Rivals weighed against a candidate: the best-ranked this many (weaker ones change nothing measurable). */
const WEIGHED_RIVALS = 8;

export class Competition {
  private readonly nameA = nameViewBuffer();
  private readonly nameB = nameViewBuffer();
  private ranked: readonly ScoredCandidate[] = [];
  private outlets: ReadonlySet<number> | undefined;
  /** samePlace[i * WEIGHED_RIVALS + j]: 1 one place, 0 two, -1 not asked yet (one row's, see forRow). */
  private readonly samePlace = new Int8Array(WEIGHED_RIVALS * WEIGHED_RIVALS);

  constructor(private readonly index: MatchingIndex) {}

  /** The row whose ranked candidates the next questions are about (answers are kept until the next row). */
  forRow(ranked: readonly ScoredCandidate[], outlets: ReadonlySet<number> | undefined): void {
    this.ranked = ranked;
    this.outlets = outlets;
    this.samePlace.fill(-1);
  }

  /**
   * The probability the evidence gives the candidate at `position` once its rivals are weighed:
   * o / (1 + o + strongest rival + ¼ × the other rivals), with o = e^log-odds.
   */
  probability(position: number): number {
    const candidate = this.ranked[position]!;
    if (this.ranked.length === 1) return Math.exp(candidate.logOdds) / (1 + Math.exp(candidate.logOdds));
    let strongest = 0;
    let others = 0;
    const count = Math.min(this.ranked.length, WEIGHED_RIVALS);
    for (let other = 0; other < count; other++) {
      if (other === position || this.areOnePlace(position, other)) continue;
      const rival = this.ranked[other]!;
      const odds = Math.exp(rival.logOdds) * this.namesakeWeight(candidate, rival, this.bothOutlets(candidate, rival));
      others += Math.min(odds, strongest);
      strongest = Math.max(strongest, odds);
    }
    const odds = Math.exp(candidate.logOdds);
    return odds / (1 + odds + strongest + WEAKER_RIVAL_SHARE * others);
  }

  /** The candidates at two positions are one place listed twice in the reference (two outlets of the chain the row names only when very near). */
  areOnePlace(i: number, j: number): boolean {
    if (i >= WEIGHED_RIVALS || j >= WEIGHED_RIVALS) return this.isOnePlace(this.ranked[i]!, this.ranked[j]!);
    const slot = Math.min(i, j) * WEIGHED_RIVALS + Math.max(i, j);
    if (this.samePlace[slot] === -1) this.samePlace[slot] = this.isOnePlace(this.ranked[i]!, this.ranked[j]!) ? 1 : 0;
    return this.samePlace[slot] === 1;
  }

  private isOnePlace(a: ScoredCandidate, b: ScoredCandidate): boolean {
    return this.isSamePlace(a.hotel, b.hotel, this.bothOutlets(a, b) ? SAME_OUTLET_METERS : DUPLICATE_DISTANCE_METERS);
  }

  private bothOutlets(a: ScoredCandidate, b: ScoredCandidate): boolean {
    return this.outlets !== undefined && this.outlets.has(a.hotel) && this.outlets.has(b.hotel);
  }

  /**
   * The candidate's name is the row's with the word for a part or a neighbour before or after it
   * ("Cashew Heights Gym", "Mardan Court Block 3", "École Camping Venorsa", not "Ramada Station
   * Luxembourg", where the word is inside the name).
   */
  namesAPartOfTheRow(partner: PreparedPartner, candidate: ScoredCandidate): boolean {
    const kind = candidate.differentKind;
    if (kind === undefined || !namesAPartOrNeighbour(kind)) return false;
    const name = referenceNameView(this.index, candidate.hotel, this.nameA);
    const { allOfA, matchedB } = compareNames(partner.name, name);
    if (!allOfA || matchedB === 0) return false;
    // The view's buffer may hold a longer earlier name's words past `count`.
    const at = name.texts.lastIndexOf(kind, name.count - 1);
    const firstMatched = 31 - Math.clz32(matchedB & -matchedB);
    const lastMatched = 31 - Math.clz32(matchedB);
    return at > lastMatched || (at >= 0 && at < firstMatched);
  }

  /**
   * A chain outlet too far from the pin, where the chain is dense, to rule out an outlet at the pin
   * that the reference lacks; an agreeing street or postcode says which outlet it is.
   */
  static mayBeAnUnlistedOutlet(candidate: ScoredCandidate, ranked: readonly ScoredCandidate[], outlets: ReadonlySet<number>): boolean {
    if (candidate.distanceMeters === null || candidate.distanceMeters <= OUTLET_REACH_METERS || !outlets.has(candidate.hotel)) return false;
    if (
      !ranked.some(
        (other) =>
          other !== candidate && outlets.has(other.hotel) && other.distanceMeters !== null && other.distanceMeters <= DENSE_CHAIN_METERS,
      )
    )
      return false;
    const { facts } = candidate;
    return !(facts.sameStreet && facts.numbersAgree !== false) && facts.postal !== true;
  }

  /**
   * How much a namesake rival still counts once distance has spoken (1: fully): between two outlets
   * of one name the pin chooses, the nearer outlet when the other is clearly farther.
   */
  private namesakeWeight(candidate: ScoredCandidate, other: ScoredCandidate, bothOutlets: boolean): number {
    if (candidate.distanceMeters === null || other.distanceMeters === null || other.distanceMeters <= candidate.distanceMeters) return 1;
    const weight = ((candidate.distanceMeters + PIN_DRIFT_METERS) / (other.distanceMeters + PIN_DRIFT_METERS)) ** NAMESAKE_DISTANCE_POWER;
    // Nearly as near: no discount worth comparing the two names for.
    if (weight > 0.9) return 1;
    if (!(bothOutlets && candidate.differentKind === undefined && other.differentKind === undefined)) {
      // Namesakes fit the row's name about as well, and well: only then are the two names compared.
      if (
        candidate.nameSimilarity < NAMESAKE_NAME_SIMILARITY ||
        Math.abs(candidate.nameSimilarity - other.nameSimilarity) > NAMESAKE_NAME_TOLERANCE
      )
        return 1;
      const nameA = referenceNameView(this.index, candidate.hotel, this.nameA);
      const nameB = referenceNameView(this.index, other.hotel, this.nameB);
      if (compareNames(nameA, nameB).similarity < NAMESAKE_NAME_SIMILARITY) return 1;
    }
    return weight;
  }

  /** Same place listed twice in the reference: near-identical names, a stone's throw apart (or the same postcode, without pins). */
  private isSamePlace(a: number, b: number, withinMeters: number): boolean {
    const { latitudes, longitudes, postalCodes } = this.index.data;
    if (!Number.isNaN(latitudes[a]!) && !Number.isNaN(latitudes[b]!)) {
      if (approximateDistanceMeters(latitudes[a]!, longitudes[a]!, latitudes[b]!, longitudes[b]!) > withinMeters) return false;
    } else if (textIsEmpty(postalCodes, a) || !textEquals(postalCodes, b, textAt(postalCodes, a))) return false;
    const nameA = referenceNameView(this.index, a, this.nameA);
    const nameB = referenceNameView(this.index, b, this.nameB);
    return compareNames(nameA, nameB).similarity >= DUPLICATE_NAME_SIMILARITY;
  }
}
