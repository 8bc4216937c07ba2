/**
 * The mapping engine: for each partner hotel, find candidate reference hotels by blocking
 * (geographic cells, then rare name words within the country), score the few best with the full
 * evidence, and decide MATCHED / REVIEW / UNMATCHED from the probability that the best candidate,
 * and not one of its competitors, is the partner hotel.
 */
import { textAt, textEquals, textIsEmpty } from './columns';
import type { PartnerHotel } from './hotels';
import type { MatchingIndex } from './reference-index';
import {
  compareNames,
  DIFFERENT_KIND_LOG_ODDS,
  MAX_COMPARED_WORDS,
  nameLogOdds,
  nameViewBuffer,
  preparePartner,
  referenceNameView,
  round,
  scoreCandidate,
  type PreparedPartner,
  type ScoredCandidate,
} from './scoring';
import { isCategoryTail, isKindWord, locatesAnOutlet, namesAPartOrNeighbour } from './place-kinds';
import { isAddressWord, isNumberToken, tokenKind } from './text';
import { approximateDistanceMeters, distanceMeters, signatureSimilarity, SIGNATURE_WORDS } from './similarity';
import { type CandidateSummary, type MappingOptions, type MappingResult, matchesBySupplierCode, type MatchMethod, type MappingStatus } from './types';

const DEFAULT_MATCH_THRESHOLD = 0.75;
const DEFAULT_REVIEW_THRESHOLD = 0.35;
const DEFAULT_MAX_CANDIDATES = 3;

/** Radius searched around a partner's coordinates; supplier pins rarely drift further. */
const SEARCH_RADIUS_METERS = 1_000;
/** Radius of the every-hotel scan used when no nearby name shares a word (typos). */
const TYPO_SEARCH_RADIUS_METERS = 500;
/** How far above the MATCHED threshold a lone candidate must be to stop widening the search. */
const CONVINCING_MARGIN_LOG_ODDS = 1;
/** Candidates kept from blocking for full scoring. */
const SHORTLIST_SIZE = 8;
/** Shortlisted hotels whose blocking score trails the best by more than this are not scored in full. */
const SHORTLIST_SCORE_GAP = 0.5;
/** Blocking keeps a hotel only if its name looks at least this much like the partner's. */
const MIN_NAME_HINT = 0.25;
/** Word overlap above which trigram signatures add nothing to blocking. */
const CONFIDENT_NAME_HINT = 0.6;
/** How much nearness adds to a blocking score (names dominate). */
const PROXIMITY_BONUS = 0.3;
const SAME_CITY_BONUS = 0.1;
const SAME_DETAIL_BONUS = 0.2;
/** A word carried by more hotels than this (in the country / near the pin) does not find candidates. */
const MAX_POSTINGS_PER_WORD = 2_000;
const MAX_NEARBY_POSTINGS_PER_WORD = 50;
/**
 * Postings walked per name search (rarest words first; further words only add weight to the
 * candidates found): in the partner's city or country, for partners without and with a pin.
 */
const MAX_CITY_POSTINGS_PER_WORD = 1_000;
const MAX_CITY_POSTINGS_PINNED = 300;
const MAX_POSTINGS_PINNED = 500;
/** Postcode blocks bigger than this (a whole district) are left to the name search. */
const MAX_POSTAL_BLOCK = 2_000;
/** Within a shared postcode, a name this alike is worth full scoring. */
const MIN_POSTAL_NAME_HINT = 0.15;
/**
 * Blocking hint of a nearby hotel whose name holds every search word of the partner's
 * ("Caffè Nero Akadimias" for "Caffè Nero"): nearly an exact name's, so that among a chain's
 * outlets nearness, not the length of their names, decides which are scored.
 */
const CONTAINED_NAME_HINT = 0.9;
/** A nearby candidate this alike in name makes the typo scan around the pin pointless. */
const CONFIDENT_NAME_FOUND = 0.8;
/** A city-search candidate this alike in name, in the partner's city, ends the search there. */
const CITY_NAME_FOUND = 0.8;
/** The most that nearness and details add to a blocking score. */
const MAX_BLOCKING_BONUS = PROXIMITY_BONUS + SAME_CITY_BONUS + 2 * SAME_DETAIL_BONUS;
const RADIANS = Math.PI / 180;
const METERS_PER_DEGREE = 111_195;
/**
 * How much each competitor after the strongest counts against the best candidate. The strongest
 * rival counts fully; the others only partly, because how many weaker look-alikes get scored is an
 * artefact of blocking (the shortlist size), and at most one of them can be the hotel anyway.
 */
const WEAKER_COMPETITOR_SHARE = 0.25;
/** Word postings longer than this (world-wide) are not searched near a pin when the name has a rarer word. */
const HUGE_POSTING_LIST = 20_000;
/** Posting ranges (grid cell rows) remembered per word between counting and walking. */
const RANGES_PER_WORD = 8;
/** Name words used for blocking (the first ones of a very long name). */
const MAX_SEARCH_WORDS = 16;
/** Two reference hotels this alike in name and this close are one place listed twice. */
const DUPLICATE_NAME_SIMILARITY = 0.85;
/**
 * A chain's name has a word of its own, a brand ("7-Eleven", "Caffè Vergnano 1882", "Hotel 81"):
 * "Playground", "Swimming Pool" and "Blk 7" name kinds of places and addresses, which many
 * unrelated places share.
 */
function namesABrand(partner: PreparedPartner): boolean {
  const words = partner.name.texts.slice(0, partner.name.count);
  if (words.some((word) => tokenKind(word) === 'distinctive' && !isKindWord(word) && !isAddressWord(word))) return true;
  // A number is the brand when no address word makes it a block or a house number ("Hotel 81", not "Blk 81").
  return words.some(isNumberToken) && !words.some(isAddressWord);
}

/** Outlets of one chain near a row that names only the chain, before distance alone chooses among them. */
const CHAIN_MIN_OUTLETS = 2;

/**
 * Farthest a chain row's pin may be from the outlet it is matched to where the chain is dense
 * (another outlet within `DENSE_CHAIN_METERS`): pins drift some tens of metres, and downtown
 * outlets stand a few hundred metres apart, so a pin farther from every listed outlet may stand at
 * one the reference lacks. Where the next outlet is far, a pin some hundred metres off is drift.
 */
const CHAIN_OUTLET_REACH_METERS = 100;
/** A name and its trade ("Guardian" / "Guardian Pharmacy") are at least this alike: less alike, the name adds more. */
const CATEGORY_TAIL_MIN_SIMILARITY = 0.6;
/** A lone namesake this many times farther than an outlet named by where it is ("Days Inn" far off, "Days Inn Toronto-Beaches" at the pin): a chain too. */
const LONE_NAMESAKE_RATIO = 3;
const DENSE_CHAIN_METERS = 500;
/** What an exact name adds to a candidate's log-odds: every outlet of a chain the row names gets it. */
const EXACT_NAME_LOG_ODDS = nameLogOdds(1);

/**
 * The best candidate is a chain outlet too far from the pin, in a dense chain, to rule out an
 * unlisted outlet at the pin; an agreeing street or postcode says which outlet it is.
 */
function mayBeAnUnlistedOutlet(best: ScoredCandidate, outlets: readonly ScoredCandidate[]): boolean {
  if (best.distanceMeters === null || best.distanceMeters <= CHAIN_OUTLET_REACH_METERS || !outlets.some((outlet) => outlet.hotel === best.hotel)) return false;
  if (!outlets.some((outlet) => outlet.hotel !== best.hotel && outlet.distanceMeters! <= DENSE_CHAIN_METERS)) return false;
  return best.evidence.addressMatch !== true && best.evidence.postalCodeMatch !== true;
}

/** A candidate that may be an outlet of the chain the row names: the row's whole name begins the candidate's, and the pin is known. */
function mayBeOutlet(candidate: ScoredCandidate): boolean {
  return candidate.containsPartnerName && candidate.distanceMeters !== null;
}

/** An outlet of the chain the row names, of the same kind of place. */
function isOutlet(candidate: ScoredCandidate): boolean {
  return mayBeOutlet(candidate) && candidate.differentKind === undefined;
}

/** Two reference names at least this alike are namesakes (outlets of one chain, one name). */
const NAMESAKE_NAME_SIMILARITY = 0.9;
/** The partner's name fits both namesakes within this much: the name cannot tell them apart. */
const NAMESAKE_NAME_TOLERANCE = 0.05;
/**
 * Typical distance between a partner's pin and the place (geocoding, entrance against centroid):
 * nearness counts as a ratio of distances padded by it, so 5 m against 40 m is not read as 8 to 1.
 */
const PIN_DRIFT_METERS = 30;
/**
 * How sharply the farther namesake fades: ((near + drift) / (far + drift))^3. An outlet 20 m away
 * against one at 150 m leaves the far one 2 % of its weight; 60 m against 80 m, 60 %.
 */
const NAMESAKE_DISTANCE_POWER = 3;
const DUPLICATE_DISTANCE_METERS = 150;
/** Two outlets of the chain a row names are one place listed twice only this near: downtown, outlets of a chain stand a block apart. */
const SAME_OUTLET_METERS = 50;
/** Two partner rows this alike are the same hotel listed twice by the partner. */
const DUPLICATE_PARTNER_NAME_SIMILARITY = 0.9;
const DUPLICATE_PARTNER_DISTANCE_METERS = 250;

/** One row's outcome with the working state behind it (what a reassignment in the cross-row rule re-reads). */
export interface RowMatch {
  result: MappingResult;
  partner: PreparedPartner;
  /** Full-scored candidates, best first (empty for ID matches and misses). */
  scored: ScoredCandidate[];
  /** Hotel index of result.referenceHotelId, -1 when none. */
  hotel: number;
}

export class HotelMatcher {
  private readonly matchThreshold: number;
  private readonly reviewThreshold: number;
  private readonly maxCandidates: number;
  private readonly convincingLogOdds: number;
  // Scratch state reused across rows so blocking does not allocate per candidate.
  private readonly visitedStamp: Uint32Array;
  private stamp = 0;
  private readonly accumulated: Float32Array;
  private readonly touched: number[] = [];
  private readonly shortlistHotels = new Int32Array(SHORTLIST_SIZE);
  private readonly shortlistScores = new Float64Array(SHORTLIST_SIZE);
  private shortlistCount = 0;
  private readonly range = new Uint32Array(2);
  private readonly ranges = new Uint32Array(128);
  private readonly wordCounts = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordOrder = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordRanges = new Uint32Array(MAX_SEARCH_WORDS * RANGES_PER_WORD * 2);
  private readonly wordRangeCounts = new Int32Array(MAX_SEARCH_WORDS);
  private readonly wordStarts = new Uint32Array(MAX_SEARCH_WORDS);
  private readonly wordEnds = new Uint32Array(MAX_SEARCH_WORDS);
  private readonly nameBufferA = nameViewBuffer();
  private readonly nameBufferB = nameViewBuffer();

  constructor(
    readonly index: MatchingIndex,
    readonly options: MappingOptions,
  ) {
    this.matchThreshold = options.matchThreshold ?? DEFAULT_MATCH_THRESHOLD;
    this.reviewThreshold = options.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD;
    this.maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    // A candidate this likely on its own evidence ends the search: wider stages could only add
    // competitors that the evidence already rules out.
    this.convincingLogOdds = Math.log(this.matchThreshold / (1 - this.matchThreshold)) + CONVINCING_MARGIN_LOG_ODDS;
    this.visitedStamp = new Uint32Array(index.size);
    this.accumulated = new Float32Array(index.size);
  }

  match(hotel: PartnerHotel): MappingResult {
    return this.matchRow(hotel).result;
  }

  matchRow(hotel: PartnerHotel): RowMatch {
    const partner = preparePartner(this.index, hotel);
    const { mode } = this.options;
    if (matchesBySupplierCode(mode)) {
      const byId = this.matchById(partner);
      if (byId || mode === 'ID_TO_ID') return byId ?? this.unmatched(partner, [], idMissReason(hotel));
    }
    return this.matchByDetails(partner);
  }

  private matchById(partner: PreparedPartner): RowMatch | undefined {
    const { supplierCode, supplierHotelId } = partner.hotel;
    if (!supplierCode || !supplierHotelId) return undefined;
    const hotel = this.index.hotelBySupplierCode(supplierCode, supplierHotelId);
    if (hotel < 0) return undefined;
    const scored = scoreCandidate(this.index, partner, hotel);
    // A supplier code pointing at a hotel unlike this one in name and place is more likely stale
    // than right: let a person confirm it.
    const implausible = scored.evidence.nameSimilarity < 0.3 && (scored.evidence.countryMatch === false || (scored.evidence.distanceMeters ?? 0) > 5_000);
    return {
      partner,
      scored: [],
      hotel,
      result: this.result(partner, hotel, implausible ? 'REVIEW' : 'MATCHED', 'ID', 1, scored, [], implausible ? 'supplier code points to a hotel with a different name and location' : undefined),
    };
  }

  private matchByDetails(partner: PreparedPartner): RowMatch {
    const found = this.findCandidates(partner);
    const outlets = this.chainOutlets(partner, found);
    const scored = outlets ? this.byDistanceAmong(outlets, found) : found;
    const best = scored[0];
    if (!best) return this.unmatched(partner, scored, undefined);

    // Probability that the best candidate is the hotel, competitors weighed (at most one is right;
    // weaker ones count in part, see WEAKER_COMPETITOR_SHARE); a competitor that is the same place
    // listed twice in the reference is not competition.
    let strongestOdds = 0;
    let otherOdds = 0;
    let competitors = 0;
    const outletHotels = outlets && new Set(outlets.map((outlet) => outlet.hotel));
    for (const other of scored.slice(1)) {
      const bothOutlets = outletHotels !== undefined && outletHotels.has(best.hotel) && outletHotels.has(other.hotel);
      if (this.isSameReferencePlace(best.hotel, other.hotel, bothOutlets ? SAME_OUTLET_METERS : DUPLICATE_DISTANCE_METERS)) continue;
      const odds = Math.exp(other.logOdds) * this.namesakeWeight(best, other);
      otherOdds += Math.min(odds, strongestOdds);
      strongestOdds = Math.max(strongestOdds, odds);
      competitors += 1;
    }
    const competingOdds = strongestOdds + WEAKER_COMPETITOR_SHARE * otherOdds;
    const bestOdds = Math.exp(best.logOdds);
    const probability = bestOdds / (1 + bestOdds + competingOdds);
    const alone = bestOdds / (1 + bestOdds);
    // What a reviewer should know first: the best candidate is another kind of place than the row.
    const otherKind = best.differentKind && `extra word "${best.differentKind}" names a different kind of place`;
    if (probability < this.reviewThreshold) return this.unmatched(partner, scored, otherKind, probability);
    let status: MappingStatus = 'MATCHED';
    let reason: string | undefined;
    // The row's place with a part or neighbour's word after it ("Cashew Heights Gym") is that
    // part, however well address and postcode agree (a gym shares its estate's): a person decides.
    if (probability < this.matchThreshold || (otherKind && this.namesAPartOfTheRow(partner, best))) {
      status = 'REVIEW';
      reason = otherKind || (alone >= this.matchThreshold ? `ambiguous: ${competitors} similar candidate(s) nearby` : 'uncertain: partial agreement');
    } else if (outlets && mayBeAnUnlistedOutlet(best, outlets)) {
      status = 'REVIEW';
      reason = `the chain's nearest outlet is ${best.distanceMeters} m away: the partner's may be one the reference lacks`;
    }
    const runnersUp = this.summaries(scored.slice(1), bestOdds + competingOdds);
    return { partner, scored, hotel: best.hotel, result: this.result(partner, best.hotel, status, 'FUZZY', probability, best, runnersUp, reason) };
  }

  /**
   * A row that names only a chain ("Starbucks Coffee") fits every outlet whose name holds its words
   * ("Starbucks Coffee Raffles Place") equally: the outlets' extra words say where, which the row
   * does not contradict. Returns those outlets when the row names a chain, else undefined: two
   * places near it bear its name (exactly, or with only the chain's trade added: "Starbucks" /
   * "Starbucks Coffee"), or one does, far off, and an outlet named by where it is stands at the pin.
   */
  private chainOutlets(partner: PreparedPartner, scored: readonly ScoredCandidate[]): ScoredCandidate[] | undefined {
    if (Number.isNaN(partner.lat)) return undefined;
    // A chain's name is the whole name of several places near the row; a place's name with its parts
    // around it ("Ridge View Residences Block C") is the whole name of one.
    let namesakes = 0;
    let nearestNamesake = Infinity;
    let nearestOutlet = Infinity;
    for (const candidate of scored) {
      if (!mayBeOutlet(candidate)) continue;
      if (candidate.nameSimilarity >= 0.99 || (candidate.nameSimilarity >= CATEGORY_TAIL_MIN_SIMILARITY && this.addsACategoryOnly(partner, candidate))) {
        namesakes += 1;
        nearestNamesake = Math.min(nearestNamesake, candidate.distanceMeters!);
      } else if (candidate.differentKind === undefined) nearestOutlet = Math.min(nearestOutlet, candidate.distanceMeters!);
    }
    const loneNamesakeFarOff = namesakes === 1 && nearestOutlet <= CHAIN_OUTLET_REACH_METERS && nearestNamesake >= LONE_NAMESAKE_RATIO * nearestOutlet;
    if ((namesakes < CHAIN_MIN_OUTLETS && !loneNamesakeFarOff) || !namesABrand(partner)) return undefined;
    const rowWords = partner.name.texts.slice(0, partner.name.count);
    return scored.filter((candidate) => {
      if (!mayBeOutlet(candidate)) return false;
      if (candidate.differentKind === undefined) return true;
      const name = referenceNameView(this.index, candidate.hotel, this.nameBufferA);
      return locatesAnOutlet(candidate.differentKind, rowWords, name.texts.slice(0, name.count));
    });
  }

  /** The candidate's name is the row's and words that say what kind of business it is ("Starbucks" / "Starbucks Coffee"). */
  private addsACategoryOnly(partner: PreparedPartner, candidate: ScoredCandidate): boolean {
    const name = referenceNameView(this.index, candidate.hotel, this.nameBufferA);
    // Words past those compareNames compares would be added words unseen.
    if (name.count > MAX_COMPARED_WORDS) return false;
    const { allOfA, matchedB } = compareNames(partner.name, name);
    if (!allOfA) return false;
    const added: string[] = [];
    for (let k = 0; k < name.count; k++) if (((matchedB >>> k) & 1) === 0) added.push(name.texts[k]!);
    return isCategoryTail(added);
  }

  /**
   * Among a chain's outlets the name's log-odds is made an exact name's (the row names the chain,
   * with or without its trade), so that distance (and the namesake rule below) chooses, not the
   * length of the outlets' names; within a chain a kind-of-place word says where the outlet is
   * ("Costa Coffee Central Station").
   */
  private byDistanceAmong(outlets: readonly ScoredCandidate[], scored: readonly ScoredCandidate[]): ScoredCandidate[] {
    const isChainOutlet = new Set(outlets);
    const lifted = scored.map((candidate) =>
      isChainOutlet.has(candidate)
        ? candidate.asOutlet(candidate.logOdds + EXACT_NAME_LOG_ODDS - nameLogOdds(candidate.nameSimilarity) - (candidate.differentKind ? DIFFERENT_KIND_LOG_ODDS : 0))
        : candidate,
    );
    return lifted.sort((a, b) => b.logOdds - a.logOdds);
  }

  /**
   * How much a namesake competitor still counts once distance has spoken (1: fully). Between two
   * outlets of one name (a chain downtown) the name cannot choose, only the pin can: the nearer
   * outlet is the partner's when the other is clearly farther, allowing for typical pin drift.
   * Two outlets about as far count fully (the row stays REVIEW); without pins nothing changes.
   */
  private namesakeWeight(best: ScoredCandidate, other: ScoredCandidate): number {
    if (best.distanceMeters === null || other.distanceMeters === null || other.distanceMeters <= best.distanceMeters) return 1;
    const weight = ((best.distanceMeters + PIN_DRIFT_METERS) / (other.distanceMeters + PIN_DRIFT_METERS)) ** NAMESAKE_DISTANCE_POWER;
    // Nearly as near: no discount worth comparing the two names for.
    if (weight > 0.9) return 1;
    if (!(isOutlet(best) && isOutlet(other))) {
      // Namesakes fit the row's name about as well, and well: only then are the two names compared.
      if (best.nameSimilarity < NAMESAKE_NAME_SIMILARITY || Math.abs(best.nameSimilarity - other.nameSimilarity) > NAMESAKE_NAME_TOLERANCE) return 1;
      const nameA = referenceNameView(this.index, best.hotel, this.nameBufferA);
      const nameB = referenceNameView(this.index, other.hotel, this.nameBufferB);
      if (compareNames(nameA, nameB).similarity < NAMESAKE_NAME_SIMILARITY) return 1;
    }
    return weight;
  }

  /**
   * The candidate's name is the row's with the word for a part or a neighbour before or after it
   * ("Cashew Heights Gym", "Mardan Court Block 3", "École Camping Venorsa", not "Ramada Station
   * Luxembourg", where the word is inside the name).
   */
  private namesAPartOfTheRow(partner: PreparedPartner, candidate: ScoredCandidate): boolean {
    const kind = candidate.differentKind;
    if (kind === undefined || !namesAPartOrNeighbour(kind)) return false;
    const name = referenceNameView(this.index, candidate.hotel, this.nameBufferA);
    const { allOfA, matchedB } = compareNames(partner.name, name);
    if (!allOfA || matchedB === 0) return false;
    // The view's buffer may hold a longer earlier name's words past `count`.
    const at = name.texts.lastIndexOf(kind, name.count - 1);
    const firstMatched = 31 - Math.clz32(matchedB & -matchedB);
    const lastMatched = 31 - Math.clz32(matchedB);
    return at > lastMatched || (at >= 0 && at < firstMatched);
  }

  /** Same place listed twice in the reference: near-identical names, a stone's throw apart. */
  private isSameReferencePlace(a: number, b: number, withinMeters = DUPLICATE_DISTANCE_METERS): boolean {
    const { latitudes, longitudes, postalCodes } = this.index.data;
    if (!Number.isNaN(latitudes[a]!) && !Number.isNaN(latitudes[b]!)) {
      if (approximateDistanceMeters(latitudes[a]!, longitudes[a]!, latitudes[b]!, longitudes[b]!) > withinMeters) return false;
    } else if (textIsEmpty(postalCodes, a) || !textEquals(postalCodes, b, textAt(postalCodes, a))) return false;
    const nameA = referenceNameView(this.index, a, this.nameBufferA);
    const nameB = referenceNameView(this.index, b, this.nameBufferB);
    return compareNames(nameA, nameB).similarity >= DUPLICATE_NAME_SIMILARITY;
  }

  /** Two partner rows describing the same hotel (a duplicate in the partner's own file). */
  arePartnerDuplicates(a: PreparedPartner, b: PreparedPartner): boolean {
    if (compareNames(a.name, b.name).similarity < DUPLICATE_PARTNER_NAME_SIMILARITY) return false;
    if (Number.isNaN(a.lat) || Number.isNaN(b.lat)) return true;
    return distanceMeters(a.lat, a.lon, b.lat, b.lon) <= DUPLICATE_PARTNER_DISTANCE_METERS;
  }

  // -------------------------------------------------------------------------------------------
  // Blocking

  /**
   * Blocking in widening stages, each stopping the search once a candidate is convincing on its
   * own: nearby hotels sharing a name word; then every hotel close by (typos leave no shared
   * word); then the whole country by name (no pin, or a pin far off). Returns the full-scored
   * candidates, best first.
   */
  private findCandidates(partner: PreparedPartner): ScoredCandidate[] {
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.visitedStamp.fill(0);
      this.stamp = 1;
    }
    const scored: ScoredCandidate[] = [];
    const located = !Number.isNaN(partner.lat);
    if (located) {
      const countryId = partner.countryId || this.index.countryAt(partner.lat, partner.lon);
      if (countryId > 0) {
        this.collectByNameNearby(partner, countryId);
        if (this.scoreShortlist(partner, scored)) return scored;
      }
      // The every-hotel scan finds names that share no word with the partner's (typos, words
      // joined or split): worth it only when the name words found nothing alike.
      if (partner.hasUnknownWord || scored.length === 0 || scored[0]!.nameSimilarity < CONFIDENT_NAME_FOUND) {
        this.collectNearby(partner);
        if (this.scoreShortlist(partner, scored)) return scored;
      }
    }
    if (partner.postalCode !== '') {
      this.collectByPostalCode(partner);
      if (this.scoreShortlist(partner, scored)) return scored;
    }
    if (partner.cityId !== 0) {
      this.collectByName(partner, true);
      if (this.scoreShortlist(partner, scored)) return scored;
      // The partner's city holds a hotel of this name: namesakes in other cities are no better.
      for (const candidate of scored) if (candidate.nameSimilarity >= CITY_NAME_FOUND && candidate.cityMatch === true) return scored;
    }
    this.collectByName(partner, false);
    this.scoreShortlist(partner, scored);
    return scored;
  }

  /** Full-scores the shortlist into `scored` (kept best first) and empties it; true when the best is convincing alone. */
  private scoreShortlist(partner: PreparedPartner, scored: ScoredCandidate[]): boolean {
    // Blocking scores are a cheap preview of the full score: one far below the best rarely ends up
    // a competitor worth counting, so it is not scored in full.
    const floor = this.shortlistScores[0]! - SHORTLIST_SCORE_GAP;
    for (let k = 0; k < this.shortlistCount && this.shortlistScores[k]! >= floor; k++) scored.push(scoreCandidate(this.index, partner, this.shortlistHotels[k]!));
    this.shortlistCount = 0;
    scored.sort((a, b) => b.logOdds - a.logOdds);
    return scored.length > 0 && scored[0]!.logOdds >= this.convincingLogOdds;
  }

  /**
   * Nearby hotels sharing a distinctive name word, from the word postings' cell-ordered ranges.
   * As in collectByName, only the rarer words find candidates.
   */
  private collectByNameNearby(partner: PreparedPartner, countryId: number): void {
    const { postingHotels, tokenWeights } = this.index.data;
    const ids = partner.searchTokenIds;
    const counts = this.wordCounts;
    const order = this.wordOrder;
    const wordCount = Math.min(ids.length, MAX_SEARCH_WORDS);
    const wordRanges = this.wordRanges;
    const { postingOffsets } = this.index.data;
    let smallestList = Infinity;
    for (let w = 0; w < wordCount; w++) smallestList = Math.min(smallestList, postingOffsets[ids[w]! + 1]! - postingOffsets[ids[w]!]!);
    for (let w = 0; w < wordCount; w++) {
      // A word on a huge list (a city name, a big chain) is never walked nearby when a rarer word
      // exists: skip the binary searches over its list and let it only add weight.
      if (postingOffsets[ids[w]! + 1]! - postingOffsets[ids[w]!]! > HUGE_POSTING_LIST && smallestList <= HUGE_POSTING_LIST) {
        counts[w] = 0x7fffffff;
        this.wordRangeCounts[w] = -1;
        let position = w;
        while (position > 0 && counts[order[position - 1]!]! > counts[w]!) {
          order[position] = order[position - 1]!;
          position -= 1;
        }
        order[position] = w;
        continue;
      }
      const rangeCount = this.index.postingRangesNearby(ids[w]!, countryId, partner.lat, partner.lon, SEARCH_RADIUS_METERS, this.ranges);
      let count = 0;
      for (let r = 0; r < rangeCount; r++) count += this.ranges[r * 2 + 1]! - this.ranges[r * 2]!;
      counts[w] = count;
      // Kept for the walk below (a 1 km search covers at most a few rows of grid cells).
      this.wordRangeCounts[w] = rangeCount <= RANGES_PER_WORD ? rangeCount : -1;
      if (rangeCount <= RANGES_PER_WORD) wordRanges.set(this.ranges.subarray(0, rangeCount * 2), w * RANGES_PER_WORD * 2);
      // Insertion by count: rarest word first.
      let position = w;
      while (position > 0 && counts[order[position - 1]!]! > count) {
        order[position] = order[position - 1]!;
        position -= 1;
      }
      order[position] = w;
    }
    const touched = this.touched;
    touched.length = 0;
    const accumulated = this.accumulated;
    let allWords = 0;
    for (let rank = 0; rank < wordCount; rank++) {
      const id = ids[order[rank]!]!;
      const weight = 2 * tokenWeights[id]!;
      allWords += weight;
      if (rank > 0 && counts[order[rank]!]! > MAX_NEARBY_POSTINGS_PER_WORD) {
        this.addToTouched(id, weight);
        continue;
      }
      const w = order[rank]!;
      let rangeCount = this.wordRangeCounts[w]!;
      let ranges = wordRanges.subarray(w * RANGES_PER_WORD * 2);
      if (rangeCount < 0) {
        rangeCount = this.index.postingRangesNearby(id, countryId, partner.lat, partner.lon, SEARCH_RADIUS_METERS, this.ranges);
        ranges = this.ranges;
      }
      for (let r = 0; r < rangeCount; r++) {
        for (let k = ranges[r * 2]!, end = ranges[r * 2 + 1]!; k < end; k++) {
          const hotel = postingHotels[k]!;
          if (accumulated[hotel] === 0) touched.push(hotel);
          accumulated[hotel]! += weight;
        }
      }
    }
    this.offerAccumulated(partner, true, allWords);
  }

  /** Adds a common word's weight to the candidates already found that carry it. */
  private addToTouched(tokenId: number, weight: number): void {
    const { nameTokenOffsets, nameTokenIds } = this.index.data;
    for (const hotel of this.touched) {
      for (let k = nameTokenOffsets[hotel]!; k < nameTokenOffsets[hotel + 1]!; k++) {
        if (nameTokenIds[k] === tokenId) this.accumulated[hotel]! += weight;
      }
    }
  }

  private collectNearby(partner: PreparedPartner): void {
    const { latitudes, longitudes, cellHotels } = this.index.data;
    const rangeCount = this.index.cellRangesNearby(partner.lat, partner.lon, TYPO_SEARCH_RADIUS_METERS, this.ranges);
    for (let r = 0; r < rangeCount; r++) {
      for (let k = this.ranges[r * 2]!, end = this.ranges[r * 2 + 1]!; k < end; k++) {
        const hotel = cellHotels[k]!;
        if (this.visitedStamp[hotel] === this.stamp) continue;
        const distance = approximateDistanceMeters(partner.lat, partner.lon, latitudes[hotel]!, longitudes[hotel]!);
        if (distance > TYPO_SEARCH_RADIUS_METERS) continue;
        const hint = this.nameHint(partner, hotel);
        // A name too damaged to look alike is still worth scoring next door at the same address.
        const details = this.detailBonus(partner, hotel);
        if (hint < MIN_NAME_HINT && details < SAME_DETAIL_BONUS) continue;
        this.visitedStamp[hotel] = this.stamp;
        this.offer(hotel, hint + details + PROXIMITY_BONUS * (1 - distance / SEARCH_RADIUS_METERS));
      }
    }
  }

  /** Cheap name resemblance for blocking: shared-word weight, or trigram overlap for typos. */
  private nameHint(partner: PreparedPartner, hotel: number): number {
    const { nameTokenOffsets, nameTokenIds, tokenWeights, nameWeightTotals, nameSignatures } = this.index.data;
    const ids = partner.name.ids;
    const end = nameTokenOffsets[hotel + 1]!;
    let shared = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      for (let k = nameTokenOffsets[hotel]!; k < end; k++) {
        if (nameTokenIds[k] === id) {
          shared += 2 * tokenWeights[id]!;
          break;
        }
      }
    }
    const total = partner.name.total + nameWeightTotals[hotel]!;
    const wordOverlap = total > 0 ? shared / total : 0;
    if (wordOverlap >= MIN_NAME_HINT) return wordOverlap;
    return Math.max(wordOverlap, signatureSimilarity(partner.signature, 0, nameSignatures, hotel * SIGNATURE_WORDS));
  }

  /**
   * Hotels sharing the partner's postcode (the partner's country when known), kept when their
   * name looks even a little alike: a postcode is a small block, so a damaged name still finds them.
   */
  private collectByPostalCode(partner: PreparedPartner): void {
    const { postalHotels, postalCodes, countryOfHotel, latitudes, longitudes } = this.index.data;
    this.index.postalRange(partner.postalCode, this.range);
    const start = this.range[0]!;
    const end = this.range[1]!;
    if (end - start > MAX_POSTAL_BLOCK) return;
    const located = !Number.isNaN(partner.lat);
    for (let k = start; k < end; k++) {
      const hotel = postalHotels[k]!;
      if (this.visitedStamp[hotel] === this.stamp || !textEquals(postalCodes, hotel, partner.postalCode)) continue;
      if (partner.countryId !== 0 && countryOfHotel[hotel] !== partner.countryId) continue;
      const hint = this.nameHint(partner, hotel);
      const details = this.detailBonus(partner, hotel);
      // Same postcode and same street: scored whatever the name looks like (typos, renames).
      if (hint < MIN_POSTAL_NAME_HINT && details < 2 * SAME_DETAIL_BONUS) continue;
      this.visitedStamp[hotel] = this.stamp;
      let score = hint + details;
      if (located && !Number.isNaN(latitudes[hotel]!)) {
        const distance = approximateDistanceMeters(partner.lat, partner.lon, latitudes[hotel]!, longitudes[hotel]!);
        score += PROXIMITY_BONUS * Math.max(-1, 1 - distance / SEARCH_RADIUS_METERS);
      }
      this.offer(hotel, score);
    }
  }

  /**
   * Hotels sharing the partner's name words, in its city (`inCity`) or its whole country, ranked
   * by shared weight. Rare words find the candidates; a common word (a city name, a big chain)
   * only adds weight to candidates already found, by checking their few words instead of walking
   * its long hotel list.
   */
  private collectByName(partner: PreparedPartner, inCity: boolean): void {
    const { postingHotels, cityPostingHotels, tokenWeights } = this.index.data;
    const postings = inCity ? cityPostingHotels : postingHotels;
    const located = !Number.isNaN(partner.lat);
    const ids = partner.searchTokenIds;
    const wordCount = Math.min(ids.length, MAX_SEARCH_WORDS);
    const starts = this.wordStarts;
    const ends = this.wordEnds;
    const order = this.wordOrder;
    for (let w = 0; w < wordCount; w++) {
      if (inCity) this.index.cityPostingRange(ids[w]!, partner.cityId, this.range);
      else this.index.postingRange(ids[w]!, partner.countryId, this.range);
      starts[w] = this.range[0]!;
      ends[w] = this.range[1]!;
      const length = ends[w]! - starts[w]!;
      let position = w;
      while (position > 0 && ends[order[position - 1]!]! - starts[order[position - 1]!]! > length) {
        order[position] = order[position - 1]!;
        position -= 1;
      }
      order[position] = w;
    }
    const touched = this.touched;
    touched.length = 0;
    // A pinned partner searches beyond its pin only to rescue a pin that is far off: rare words
    // suffice for that. Without a pin the name is the main key and may walk longer lists.
    const limit = located ? (inCity ? MAX_CITY_POSTINGS_PINNED : MAX_POSTINGS_PINNED) : inCity ? MAX_CITY_POSTINGS_PER_WORD : MAX_POSTINGS_PER_WORD;
    let walked = 0;
    for (let rank = 0; rank < wordCount; rank++) {
      const id = ids[order[rank]!]!;
      const start = starts[order[rank]!]!;
      const end = ends[order[rank]!]!;
      const weight = 2 * tokenWeights[id]!;
      // After the rarest word, walk further words only while the walk stays short: the
      // candidates found so far get the other words' weight by a check of their own few words.
      if (rank > 0 && walked + (end - start) > limit) {
        this.addToTouched(id, weight);
        continue;
      }
      walked += end - start;
      if (end - start > limit) {
        // Even the rarest word is common (a name like "Hotel Paris"). A pinned partner only gets
        // here when nothing near its pin convinced, and a partner with a city had its city searched:
        // a whole-country walk of a common word is not worth it for them.
        if (located || (!inCity && partner.cityId !== 0)) break;
      }
      for (let k = start; k < end; k++) {
        const hotel = postings[k]!;
        if (this.accumulated[hotel] === 0) touched.push(hotel);
        this.accumulated[hotel]! += weight;
      }
    }
    this.offerAccumulated(partner, false);
  }

  /**
   * Offers the hotels whose shared-word weight was accumulated (and clears it). `nearby`: they
   * came from the grid around the pin, so a convincing one ends the search.
   */
  private offerAccumulated(partner: PreparedPartner, nearby: boolean, allWords = Infinity): void {
    const { nameWeightTotals, latitudes, longitudes, nameSignatures, cityOfHotel } = this.index.data;
    const accumulated = this.accumulated;
    const visitedStamp = this.visitedStamp;
    const located = !Number.isNaN(partner.lat);
    const partnerTotal = partner.name.total;
    const rescueTypos = !nearby && partner.hasUnknownWord;
    const longitudeScale = located ? Math.cos(partner.lat * RADIANS) : 0;
    const touched = this.touched;
    for (let t = 0; t < touched.length; t++) {
      const hotel = touched[t]!;
      const shared = accumulated[hotel]!;
      const overlap = shared / (partnerTotal + nameWeightTotals[hotel]!);
      accumulated[hotel] = 0;
      if (visitedStamp[hotel] === this.stamp) continue;
      // Shared words undercount a name with a typo (a word the reference does not know); its
      // trigrams still agree. Near the pin, collectNearby covers typos; far from it, the city.
      let hint = shared >= allWords * 0.999 ? Math.max(overlap, CONTAINED_NAME_HINT) : overlap;
      if (rescueTypos && overlap < CONFIDENT_NAME_HINT && (partner.cityId === 0 || cityOfHotel[hotel] === partner.cityId)) {
        hint = Math.max(overlap, signatureSimilarity(partner.signature, 0, nameSignatures, hotel * SIGNATURE_WORDS));
      }
      if (hint < MIN_NAME_HINT) continue;
      // Even with every bonus this hotel would not make the full shortlist: skip the details.
      if (this.shortlistCount === SHORTLIST_SIZE && hint + MAX_BLOCKING_BONUS <= this.shortlistScores[SHORTLIST_SIZE - 1]!) continue;
      let score = hint + this.detailBonus(partner, hotel);
      if (located && !Number.isNaN(latitudes[hotel]!)) {
        const dy = latitudes[hotel]! - partner.lat;
        const dx = (longitudes[hotel]! - partner.lon) * longitudeScale;
        const distance = Math.sqrt(dx * dx + dy * dy) * METERS_PER_DEGREE;
        if (nearby && distance > SEARCH_RADIUS_METERS) continue;
        score += PROXIMITY_BONUS * Math.max(-1, 1 - distance / SEARCH_RADIUS_METERS);
      }
      visitedStamp[hotel] = this.stamp;
      this.offer(hotel, score);
    }
    touched.length = 0;
  }

  /** Cheap agreement on city, postcode and street, to rank same-named hotels before full scoring. */
  private detailBonus(partner: PreparedPartner, hotel: number): number {
    const { cityOfHotel, postalCodes, addressWords } = this.index.data;
    let bonus = 0;
    if (partner.cityId !== 0 && cityOfHotel[hotel] === partner.cityId) bonus += SAME_CITY_BONUS;
    if (partner.postalCode !== '' && this.index.data.postalCodeHashes[hotel] === partner.postalCodeHash && textEquals(postalCodes, hotel, partner.postalCode)) bonus += SAME_DETAIL_BONUS;
    if (partner.addressWordsText !== '' && this.index.data.addressWordsHashes[hotel] === partner.addressWordsHash && textEquals(addressWords, hotel, partner.addressWordsText)) bonus += SAME_DETAIL_BONUS;
    return bonus;
  }

  /** Keeps the SHORTLIST_SIZE best blocking scores (insertion into a small sorted buffer). */
  private offer(hotel: number, score: number): void {
    const hotels = this.shortlistHotels;
    const scores = this.shortlistScores;
    if (this.shortlistCount === SHORTLIST_SIZE && score <= scores[SHORTLIST_SIZE - 1]!) return;
    let position = this.shortlistCount < SHORTLIST_SIZE ? this.shortlistCount++ : SHORTLIST_SIZE - 1;
    while (position > 0 && scores[position - 1]! < score) {
      scores[position] = scores[position - 1]!;
      hotels[position] = hotels[position - 1]!;
      position -= 1;
    }
    scores[position] = score;
    hotels[position] = hotel;
  }

  // -------------------------------------------------------------------------------------------
  // Results

  /** Runner-up summaries with each candidate's share of the probability. */
  summaries(scored: readonly ScoredCandidate[], totalOdds: number): CandidateSummary[] {
    const { ids, names } = this.index.data;
    return scored.slice(0, this.maxCandidates).map((candidate) => ({
      referenceHotelId: textAt(ids, candidate.hotel),
      referenceHotelName: textAt(names, candidate.hotel),
      score: round(Math.exp(candidate.logOdds) / (1 + totalOdds), 3),
      nameSimilarity: candidate.nameSimilarity,
      distanceMeters: candidate.distanceMeters,
    }));
  }

  result(
    partner: PreparedPartner,
    hotel: number,
    status: MappingStatus,
    method: MatchMethod,
    score: number,
    evidence: ScoredCandidate,
    candidates: CandidateSummary[],
    reason: string | undefined,
  ): MappingResult {
    return {
      partnerHotelId: partner.hotel.id,
      partnerHotelName: partner.hotel.name,
      referenceHotelId: textAt(this.index.data.ids, hotel),
      referenceHotelName: textAt(this.index.data.names, hotel),
      status,
      method,
      score: round(score, 3),
      evidence: evidence.evidence,
      candidates,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  private unmatched(partner: PreparedPartner, scored: ScoredCandidate[], reason: string | undefined, bestProbability = 0): RowMatch {
    const totalOdds = scored.reduce((total, candidate) => total + Math.exp(candidate.logOdds), 0);
    return {
      partner,
      scored,
      hotel: -1,
      result: {
        partnerHotelId: partner.hotel.id,
        partnerHotelName: partner.hotel.name,
        referenceHotelId: null,
        referenceHotelName: null,
        status: 'UNMATCHED',
        method: null,
        score: round(bestProbability, 3),
        // Nothing was chosen: the runners-up carry what was found.
        evidence: null,
        candidates: this.summaries(scored, totalOdds),
        ...(reason === undefined ? {} : { reason }),
      },
    };
  }

  get thresholds(): { match: number; review: number } {
    return { match: this.matchThreshold, review: this.reviewThreshold };
  }
}

function idMissReason(hotel: PartnerHotel): string {
  return hotel.supplierCode && hotel.supplierHotelId
    ? `no reference hotel has ${hotel.supplierCode} code ${hotel.supplierHotelId}`
    : 'row has no supplierCode and supplierHotelId';
}
