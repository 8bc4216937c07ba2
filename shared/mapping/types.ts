/** Public types of the mapping engine. */

export type MappingMode = 'STANDARD' | 'ID_TO_ID' | 'HYBRID';
export const MAPPING_MODES: readonly MappingMode[] = ['STANDARD', 'ID_TO_ID', 'HYBRID'];

/** ID_TO_ID and HYBRID look reference hotels up by the partner's supplier code; STANDARD never does. */
export function matchesBySupplierCode(mode: MappingMode): boolean {
  return mode !== 'STANDARD';
}

/** MATCHED: confident; REVIEW: plausible but uncertain or ambiguous, a person should look; UNMATCHED: none found. */
export type MappingStatus = 'MATCHED' | 'REVIEW' | 'UNMATCHED';

/** ID: through the supplier's hotel code; FUZZY: by comparing the hotel's details. */
export type MatchMethod = 'ID' | 'FUZZY';

/** Why a candidate looks like (or unlike) the partner hotel. Null fields: not comparable (absent on one side). */
export interface MatchEvidence {
  /** 0..1 token-weighted name similarity (rare words count more). */
  nameSimilarity: number;
  /** Great-circle distance between the two coordinates, rounded to the metre. */
  distanceMeters: number | null;
  /** Same street and house number. */
  addressMatch: boolean | null;
  /** 0..1 similarity of the street words. */
  addressSimilarity: number | null;
  postalCodeMatch: boolean | null;
  cityMatch: boolean | null;
  countryMatch: boolean | null;
}

/**
 * Another hotel the engine weighed, with the same evidence as a proposal (rows mapped before
 * candidates carried it have the name and distance only).
 */
export interface CandidateSummary
  extends Pick<MatchEvidence, 'nameSimilarity' | 'distanceMeters'>, Partial<Omit<MatchEvidence, 'nameSimilarity' | 'distanceMeters'>> {
  referenceHotelId: string;
  referenceHotelName: string;
  /** Probability (0..1) that this candidate is the partner hotel. */
  score: number;
}

/**
 * What a result carries of its reference hotel beyond the id and name, from the publication mapped
 * against; each absent when unknown, and all of them when there is no hotel.
 */
export interface ReferenceHotelFacts {
  referenceHotelCity?: string;
  /** ISO 3166-1 alpha-2. */
  referenceHotelCountryCode?: string;
  /**
   * The hotel's codes at every supplier (supplier code -> that supplier's hotel id). Partners are
   * shown those of the suppliers they are connected to (supplierCodesShown).
   */
  supplierCodes?: Record<string, string>;
}

/** A reference hotel as a result or a decision shows it. */
export interface ReferenceHotelShown extends ReferenceHotelFacts {
  referenceHotelId: string;
  referenceHotelName: string;
}

export interface MappingResult extends ReferenceHotelFacts {
  partnerHotelId: string;
  partnerHotelName: string;
  /** The matched hotel; for REVIEW the best candidate; null when UNMATCHED. */
  referenceHotelId: string | null;
  referenceHotelName: string | null;
  status: MappingStatus;
  /** Null when UNMATCHED. */
  method: MatchMethod | null;
  /**
   * Probability (0..1) that referenceHotelId is the partner hotel, from the match model, shared
   * with the competing candidates; for UNMATCHED rows, that of the best candidate found (0 when none).
   */
  score: number;
  /** Evidence for the chosen (or best) candidate; null when there was no candidate. */
  evidence: MatchEvidence | null;
  /** Next best candidates, best first (the chosen one excluded). */
  candidates: CandidateSummary[];
  /** Short explanation when the status is not a plain confident match or a plain miss. */
  reason?: string;
}

export interface MappingOptions {
  mode: MappingMode;
  /** Minimum score for MATCHED. Default: the match model's (the threshold that maximised leave-one-set-out F1). */
  matchThreshold?: number;
  /** Minimum score for REVIEW. Default: the match model's (0.1). */
  reviewThreshold?: number;
  /** How many runner-up candidates to report per row. Default 3. */
  maxCandidates?: number;
}

export const SCORE_ORDERS = ['DESC', 'ASC'] as const;
/** Best score first, or lowest first. */
export type ScoreOrder = (typeof SCORE_ORDERS)[number];
