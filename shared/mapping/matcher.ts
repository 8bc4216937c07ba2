/**
 * One partner row at a time: by the supplier's hotel code (ID_TO_ID, HYBRID), else by its details:
 * blocking finds the candidates (candidate-search.ts), the evidence ranks them
 * (candidate-evidence.ts, chain-outlets.ts), the match model says how likely each of the best is
 * the partner's place (match-decision.ts), and the likeliest is MATCHED, REVIEW or UNMATCHED by the
 * model's thresholds.
 */
import { textAt } from './columns';
import { round, scoreCandidate, type ScoredCandidate } from './candidate-evidence';
import { CandidateSearch } from './candidate-search';
import { rankChainOutlets, type RankedCandidates } from './chain-outlets';
import type { PartnerHotel } from './hotels';
import { referenceFacts } from './reference-facts';
import { choose, MatchDecision, MATCH_MODEL, type MatchModel } from './match-decision';
import { preparePartner, type PreparedPartner } from './partner-row';
import type { MatchingIndex } from './matching-index';
import {
  type CandidateSummary,
  type MappingOptions,
  type MappingResult,
  matchesBySupplierCode,
  type MatchMethod,
  type MappingStatus,
} from './types';
import { REASONS } from './reasons';

const DEFAULT_MAX_CANDIDATES = 3;

/** The MATCHED and REVIEW thresholds: the options' where given, else the model's. */
export function decisionThresholds(
  options: Pick<MappingOptions, 'matchThreshold' | 'reviewThreshold'>,
  model: MatchModel = MATCH_MODEL,
): { match: number; review: number } {
  return { match: options.matchThreshold ?? model.matchThreshold, review: options.reviewThreshold ?? model.reviewThreshold };
}

/** One row's outcome: the result, and the prepared row behind it. */
export interface RowMatch {
  result: MappingResult;
  partner: PreparedPartner;
  /** Hotel index of result.referenceHotelId, -1 when none. */
  hotel: number;
}

/** A row's candidates before the decision: what the match model is trained on. */
export interface RowCandidates extends RankedCandidates {
  partner: PreparedPartner;
}

export class HotelMatcher {
  readonly thresholds: { match: number; review: number };
  private readonly maxCandidates: number;
  private readonly search: CandidateSearch;
  readonly decision: MatchDecision;

  constructor(
    readonly index: MatchingIndex,
    readonly options: MappingOptions,
    model: MatchModel = MATCH_MODEL,
  ) {
    this.thresholds = decisionThresholds(options, model);
    this.maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
    this.search = new CandidateSearch(index);
    this.decision = new MatchDecision(index, model);
  }

  match(hotel: PartnerHotel): MappingResult {
    return this.matchRow(hotel).result;
  }

  matchRow(hotel: PartnerHotel): RowMatch {
    const partner = preparePartner(this.index, hotel);
    const { mode } = this.options;
    if (matchesBySupplierCode(mode)) {
      const byId = this.matchById(partner);
      if (byId || mode === 'ID_TO_ID') return byId ?? this.unmatched(partner, [], [], idMissReason(hotel));
    }
    return this.matchByDetails(this.candidates(partner));
  }

  /** The row's candidates found by blocking and ranked by their evidence. */
  candidates(partner: PreparedPartner): RowCandidates {
    return { partner, ...rankChainOutlets(this.index, partner, this.search.find(partner)) };
  }

  private matchById(partner: PreparedPartner): RowMatch | undefined {
    const { supplierCode, supplierHotelId } = partner.hotel;
    if (!supplierCode || !supplierHotelId) return undefined;
    const hotel = this.index.hotelBySupplierCode(supplierCode, supplierHotelId);
    if (hotel < 0) return undefined;
    const scored = scoreCandidate(this.index, partner, hotel);
    // A supplier code pointing at a hotel unlike this one in name and place is more likely stale
    // than right: let a person confirm it.
    const implausible = scored.nameSimilarity < 0.3 && (scored.facts.countryMatch === false || (scored.distanceMeters ?? 0) > 5_000);
    return {
      partner,
      hotel,
      result: this.result(
        partner,
        hotel,
        implausible ? 'REVIEW' : 'MATCHED',
        'ID',
        1,
        scored,
        [],
        implausible ? REASONS.supplierCodeImplausible() : undefined,
      ),
    };
  }

  private matchByDetails({ partner, ranked, outlets }: RowCandidates): RowMatch {
    const { candidates, probabilities, vetoes, onePlace } = this.decision.assess(partner, ranked, outlets);
    const { best, matched, veto, rivals } = choose(probabilities, vetoes, onePlace, this.thresholds.match);
    // Likeliest first; among equals, the better evidence (the ranking's order).
    const order =
      candidates.length === 1
        ? [0]
        : candidates.map((_, k) => k).sort((a, b) => (a === best ? -1 : b === best ? 1 : probabilities[b]! - probabilities[a]! || a - b));
    const byProbability = order.map((k) => candidates[k]!);
    const chances = order.map((k) => probabilities[k]!);
    if (best < 0) return this.unmatched(partner, [], [], undefined);
    const chosen = candidates[best]!;
    const probability = probabilities[best]!;
    // What a reviewer should know first: the best candidate is another kind of place than the row.
    const otherKind = chosen.differentKind && REASONS.differentKind(chosen.differentKind);
    if (probability < this.thresholds.review) return this.unmatched(partner, byProbability, chances, otherKind);
    let reason: string | undefined;
    if (!matched) {
      if (otherKind) reason = otherKind;
      else if (rivals > 0) reason = REASONS.ambiguous(rivals);
      else if (veto === 'outlet beyond reach') reason = REASONS.outletBeyondReach(chosen.distanceMeters);
      else reason = REASONS.partialAgreement();
    }
    const runnersUp = this.summaries(byProbability.slice(1), chances.slice(1));
    return {
      partner,
      hotel: chosen.hotel,
      result: this.result(partner, chosen.hotel, matched ? 'MATCHED' : 'REVIEW', 'FUZZY', probability, chosen, runnersUp, reason),
    };
  }

  /** Runner-up summaries with each candidate's probability and the same evidence as a proposal. */
  private summaries(candidates: readonly ScoredCandidate[], chances: readonly number[]): CandidateSummary[] {
    const { ids, names } = this.index.data;
    return candidates.slice(0, this.maxCandidates).map((candidate, k) => ({
      referenceHotelId: textAt(ids, candidate.hotel),
      referenceHotelName: textAt(names, candidate.hotel),
      score: round(chances[k]!, 3),
      ...candidate.evidence,
    }));
  }

  private result(
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
      ...referenceFacts(this.index, hotel),
      status,
      method,
      score: round(score, 3),
      evidence: evidence.evidence,
      candidates,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  private unmatched(
    partner: PreparedPartner,
    candidates: readonly ScoredCandidate[],
    chances: readonly number[],
    reason: string | undefined,
  ): RowMatch {
    return {
      partner,
      hotel: -1,
      result: {
        partnerHotelId: partner.hotel.id,
        partnerHotelName: partner.hotel.name,
        referenceHotelId: null,
        referenceHotelName: null,
        status: 'UNMATCHED',
        method: null,
        score: round(chances[0] ?? 0, 3),
        // Nothing was chosen: the runners-up carry what was found.
        evidence: null,
        candidates: this.summaries(candidates, chances),
        ...(reason === undefined ? {} : { reason }),
      },
    };
  }
}

function idMissReason(hotel: PartnerHotel): string {
  return hotel.supplierCode && hotel.supplierHotelId
    ? REASONS.supplierCodeNotFound(hotel.supplierCode, hotel.supplierHotelId)
    : REASONS.supplierCodeMissing();
}
