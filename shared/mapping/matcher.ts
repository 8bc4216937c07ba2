/**
 * The mapping engine: for each partner hotel, find candidate reference hotels by blocking
 * (geographic cells, then rare name words within the country), score the few best with the full
 * evidence, and decide MATCHED / REVIEW / UNMATCHED from the probability that the best candidate,
 * and not one of its competitors, is the partner hotel.
 */
import type { PartnerHotel } from '../domain/hotels';
import type { MatchingIndex } from './reference-index';
import {
  compareNames,
  preparePartner,
  referenceNameView,
  round,
  scoreCandidate,
  type PreparedPartner,
  type ScoredCandidate,
} from './scoring';
import { distanceMeters, signatureSimilarity, SIGNATURE_WORDS } from './similarity';
import type { CandidateSummary, MappingOptions, MappingResult, MatchMethod, MappingStatus } from './types';

const DEFAULT_MATCH_THRESHOLD = 0.75;
const DEFAULT_REVIEW_THRESHOLD = 0.35;
const DEFAULT_MAX_CANDIDATES = 3;

/** Radius searched around a partner's coordinates; supplier pins rarely drift further. */
const SEARCH_RADIUS_METERS = 1_000;
/** Candidates kept from blocking for full scoring. */
const SHORTLIST_SIZE = 8;
/** Blocking keeps a hotel only if its name looks at least this much like the partner's. */
const MIN_NAME_HINT = 0.25;
/** Below this best name hint nearby, the hotel may have been pinned far away: search by name too. */
const CONFIDENT_NAME_HINT = 0.6;
/** How much nearness adds to a blocking score (names dominate). */
const PROXIMITY_BONUS = 0.3;
const SAME_CITY_BONUS = 0.1;
/** Word lists longer than this are skipped in name search unless they are the rarest word. */
const MAX_POSTINGS_PER_WORD = 20_000;
/** Two reference hotels this alike in name and this close are one place listed twice. */
const DUPLICATE_NAME_SIMILARITY = 0.85;
const DUPLICATE_DISTANCE_METERS = 150;
/** Two partner rows this alike are the same hotel listed twice by the partner. */
const DUPLICATE_PARTNER_NAME_SIMILARITY = 0.9;
const DUPLICATE_PARTNER_DISTANCE_METERS = 250;

/** One row's outcome with what the cross-row rules need. */
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
  // Scratch state reused across rows so blocking does not allocate per candidate.
  private readonly visitedStamp: Uint32Array;
  private stamp = 0;
  private readonly accumulated: Float32Array;
  private readonly touched: number[] = [];
  private readonly shortlistHotels = new Int32Array(SHORTLIST_SIZE);
  private readonly shortlistScores = new Float64Array(SHORTLIST_SIZE);
  private shortlistCount = 0;
  private bestNameHint = 0;
  private readonly range = new Uint32Array(2);

  constructor(
    readonly index: MatchingIndex,
    readonly options: MappingOptions,
  ) {
    this.matchThreshold = options.matchThreshold ?? DEFAULT_MATCH_THRESHOLD;
    this.reviewThreshold = options.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD;
    this.maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    this.visitedStamp = new Uint32Array(index.size);
    this.accumulated = new Float32Array(index.size);
  }

  match(hotel: PartnerHotel): MappingResult {
    return this.matchRow(hotel).result;
  }

  matchRow(hotel: PartnerHotel): RowMatch {
    const partner = preparePartner(this.index, hotel);
    const { mode } = this.options;
    if (mode === 'ID_TO_ID' || mode === 'HYBRID') {
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
    this.collectShortlist(partner);
    const scored: ScoredCandidate[] = [];
    for (let k = 0; k < this.shortlistCount; k++) scored.push(scoreCandidate(this.index, partner, this.shortlistHotels[k]!));
    scored.sort((a, b) => b.logOdds - a.logOdds);
    const best = scored[0];
    if (!best) return this.unmatched(partner, scored, undefined);

    // Probability that the best candidate is the hotel, competitors weighed (at most one is right);
    // a competitor that is the same place listed twice in the reference is not competition.
    let competingOdds = 0;
    let competitors = 0;
    for (const other of scored.slice(1)) {
      if (this.isSameReferencePlace(best.hotel, other.hotel)) continue;
      competingOdds += Math.exp(other.logOdds);
      competitors += 1;
    }
    const bestOdds = Math.exp(best.logOdds);
    const probability = bestOdds / (1 + bestOdds + competingOdds);
    const alone = bestOdds / (1 + bestOdds);
    if (probability < this.reviewThreshold) return this.unmatched(partner, scored, undefined, probability);
    let status: MappingStatus = 'MATCHED';
    let reason: string | undefined;
    if (probability < this.matchThreshold) {
      status = 'REVIEW';
      reason = alone >= this.matchThreshold ? `ambiguous: ${competitors} similar candidate(s) nearby` : 'uncertain: partial agreement';
    }
    const runnersUp = this.summaries(scored.slice(1), bestOdds + competingOdds);
    return { partner, scored, hotel: best.hotel, result: this.result(partner, best.hotel, status, 'FUZZY', probability, best, runnersUp, reason) };
  }

  /** Same place listed twice in the reference: near-identical names, a stone's throw apart. */
  private isSameReferencePlace(a: number, b: number): boolean {
    const { latitudes, longitudes, postalCodes } = this.index.data;
    if (compareNames(referenceNameView(this.index, a), referenceNameView(this.index, b)).similarity < DUPLICATE_NAME_SIMILARITY) return false;
    if (!Number.isNaN(latitudes[a]!) && !Number.isNaN(latitudes[b]!)) {
      return distanceMeters(latitudes[a]!, longitudes[a]!, latitudes[b]!, longitudes[b]!) <= DUPLICATE_DISTANCE_METERS;
    }
    return postalCodes[a] !== '' && postalCodes[a] === postalCodes[b];
  }

  /** Two partner rows describing the same hotel (a duplicate in the partner's own file). */
  arePartnerDuplicates(a: PreparedPartner, b: PreparedPartner): boolean {
    if (compareNames(a.name, b.name).similarity < DUPLICATE_PARTNER_NAME_SIMILARITY) return false;
    if (Number.isNaN(a.lat) || Number.isNaN(b.lat)) return true;
    return distanceMeters(a.lat, a.lon, b.lat, b.lon) <= DUPLICATE_PARTNER_DISTANCE_METERS;
  }

  // -------------------------------------------------------------------------------------------
  // Blocking

  private collectShortlist(partner: PreparedPartner): void {
    this.shortlistCount = 0;
    this.bestNameHint = 0;
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.visitedStamp.fill(0);
      this.stamp = 1;
    }
    if (!Number.isNaN(partner.lat)) this.collectNearby(partner);
    if (Number.isNaN(partner.lat) || this.bestNameHint < CONFIDENT_NAME_HINT) this.collectByName(partner);
  }

  private collectNearby(partner: PreparedPartner): void {
    const { latitudes, longitudes } = this.index.data;
    const cosine = Math.cos((partner.lat * Math.PI) / 180);
    this.index.visitNearby(partner.lat, partner.lon, SEARCH_RADIUS_METERS, (hotel) => {
      // Equirectangular distance: exact enough within a kilometre.
      const dy = (latitudes[hotel]! - partner.lat) * 111_195;
      const dx = (longitudes[hotel]! - partner.lon) * 111_195 * cosine;
      const distance = Math.sqrt(dx * dx + dy * dy);
      if (distance > SEARCH_RADIUS_METERS) return;
      this.visitedStamp[hotel] = this.stamp;
      const hint = this.nameHint(partner, hotel);
      if (hint < MIN_NAME_HINT) return;
      if (hint > this.bestNameHint) this.bestNameHint = hint;
      this.offer(hotel, hint + PROXIMITY_BONUS * (1 - distance / SEARCH_RADIUS_METERS));
    });
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

  /** Hotels of the partner's country sharing its rarer name words, ranked by shared weight. */
  private collectByName(partner: PreparedPartner): void {
    const { postingHotels, tokenWeights, nameWeightTotals, latitudes, longitudes, cityOfHotel } = this.index.data;
    const { ids } = partner.name;
    let rarestLength = Infinity;
    for (let i = 0; i < ids.length; i++) {
      if (ids[i]! < 0) continue;
      this.index.postingRange(ids[i]!, partner.countryId, this.range);
      rarestLength = Math.min(rarestLength, this.range[1]! - this.range[0]!);
    }
    const touched = this.touched;
    touched.length = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      this.index.postingRange(id, partner.countryId, this.range);
      const length = this.range[1]! - this.range[0]!;
      if (length > MAX_POSTINGS_PER_WORD && length > rarestLength) continue;
      const weight = 2 * tokenWeights[id]!;
      for (let k = this.range[0]!; k < this.range[1]!; k++) {
        const hotel = postingHotels[k]!;
        if (this.accumulated[hotel] === 0) touched.push(hotel);
        this.accumulated[hotel]! += weight;
      }
    }
    const located = !Number.isNaN(partner.lat);
    for (const hotel of touched) {
      const overlap = this.accumulated[hotel]! / (partner.name.total + nameWeightTotals[hotel]!);
      this.accumulated[hotel] = 0;
      if (overlap < MIN_NAME_HINT || this.visitedStamp[hotel] === this.stamp) continue;
      let score = overlap;
      if (partner.cityId !== 0 && cityOfHotel[hotel] === partner.cityId) score += SAME_CITY_BONUS;
      if (located && !Number.isNaN(latitudes[hotel]!)) {
        const distance = distanceMeters(partner.lat, partner.lon, latitudes[hotel]!, longitudes[hotel]!);
        score += PROXIMITY_BONUS * Math.max(-1, 1 - distance / SEARCH_RADIUS_METERS / 10);
      }
      this.offer(hotel, score);
    }
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
      referenceHotelId: ids[candidate.hotel]!,
      referenceHotelName: names[candidate.hotel]!,
      score: round(Math.exp(candidate.logOdds) / (1 + totalOdds), 3),
      nameSimilarity: candidate.evidence.nameSimilarity,
      distanceMeters: candidate.evidence.distanceMeters,
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
      referenceHotelId: this.index.data.ids[hotel]!,
      referenceHotelName: this.index.data.names[hotel]!,
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
