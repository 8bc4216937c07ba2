/**
 * Why a row was held for review or left unmatched: the text a person reads (`reason`) and a code a
 * machine reads (`reasonCode`). Every text the engine writes is built here, beside the code it
 * stands for, so that the code of a row follows from its status, method, text and candidates: the
 * same for a row mapped today as for one kept from before the codes existed.
 */
import type { MappingResult } from './types';

/**
 * Below this probability a candidate is no plausible match: an UNMATCHED row whose best candidate
 * scores under it is most likely a place the reference lacks (the scores are calibrated, so about
 * one such candidate in a hundred, at most, is right).
 */
export const PLAUSIBLE_SCORE = 0.01;

export const REASON_CODES = [
  'NO_CANDIDATES',
  'BELOW_THRESHOLD',
  'AMBIGUOUS_MATCH',
  'DIFFERENT_KIND_OF_PLACE',
  'CHAIN_OUTLET_UNCLEAR',
  'CLAIMED_BY_ANOTHER_ROW',
  'SUPPLIER_CODE_NOT_FOUND',
  'SUPPLIER_CODE_MISSING',
  'SUPPLIER_CODE_MISMATCH',
  'DECIDED_NO_MATCH',
  'PARTNER_HOTEL_CHANGED',
  'INVALID_INPUT',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** What each code means, for the API's reference and the partner's guide. */
export const REASON_CODE_MEANINGS: Record<ReasonCode, string> = {
  NO_CANDIDATES: `no reference hotel is a plausible match: none near the row or like it was found, or each scored under ${PLAUSIBLE_SCORE}`,
  BELOW_THRESHOLD: "the best candidate's score is below the threshold: the review threshold for UNMATCHED, the match threshold for REVIEW",
  AMBIGUOUS_MATCH: 'several candidates are about as likely as the best one',
  DIFFERENT_KIND_OF_PLACE: "a word of the row's name names another kind of place than the candidate (a gym, a restaurant, a spa)",
  CHAIN_OUTLET_UNCLEAR: "the row is an outlet of a chain, and the reference's outlets of that chain cannot tell which one it is",
  CLAIMED_BY_ANOTHER_ROW: 'another row of the same job is matched to the same reference hotel with a stronger match',
  SUPPLIER_CODE_NOT_FOUND: "no reference hotel has the row's supplier hotel id",
  SUPPLIER_CODE_MISSING: 'the row has no supplierCode and supplierHotelId to map by (ID_TO_ID)',
  SUPPLIER_CODE_MISMATCH: "the supplier hotel id points at a reference hotel whose name and place are unlike the row's",
  DECIDED_NO_MATCH: 'a person decided the row has no match',
  PARTNER_HOTEL_CHANGED: "the partner's hotel changed materially since a person decided it (mapping book): decide it again",
  INVALID_INPUT: 'the hotel was refused as an inventory row would be (find-match)',
};

/** The texts the engine writes, each with its code. */
export const REASONS = {
  differentKind: (word: string) => `extra word "${word}" names a different kind of place`,
  ambiguous: (rivals: number) => `ambiguous: ${rivals} similar candidate(s) nearby`,
  outletBeyondReach: (meters: number | null) =>
    `the chain's nearest outlet is ${meters} m away: the partner's may be one the reference lacks`,
  partialAgreement: () => 'uncertain: partial agreement',
  claimedByStronger: (partnerHotelId: string) => `reference hotel also claimed by partner row ${partnerHotelId} with a stronger match`,
  listedTwice: (partnerHotelId: string) => `same hotel as partner row ${partnerHotelId} (listed twice)`,
  supplierCodeImplausible: () => 'supplier code points to a hotel with a different name and location',
  supplierCodeNotFound: (supplierCode: string, supplierHotelId: string) => `no reference hotel has ${supplierCode} code ${supplierHotelId}`,
  supplierCodeMissing: () => 'row has no supplierCode and supplierHotelId',
};

/** The start of each coded text, in the order they are tried (a unit test holds each text of REASONS to its code). */
const CODED_TEXTS: [prefix: string, code: ReasonCode][] = [
  ['extra word ', 'DIFFERENT_KIND_OF_PLACE'],
  ['ambiguous: ', 'AMBIGUOUS_MATCH'],
  ["the chain's nearest outlet is ", 'CHAIN_OUTLET_UNCLEAR'],
  ['uncertain: ', 'BELOW_THRESHOLD'],
  ['reference hotel also claimed by partner row ', 'CLAIMED_BY_ANOTHER_ROW'],
  ['supplier code points to a hotel ', 'SUPPLIER_CODE_MISMATCH'],
  ['no reference hotel has ', 'SUPPLIER_CODE_NOT_FOUND'],
  ['row has no supplierCode and supplierHotelId', 'SUPPLIER_CODE_MISSING'],
];

/** Why a REVIEW or UNMATCHED row is so, as a code (a person's NO_MATCH too); undefined for a MATCHED row. */
export function reasonCodeOf(
  row: Pick<MappingResult, 'status' | 'score' | 'reason' | 'candidates'> & { method: MappingResult['method'] | 'MANUAL' },
): ReasonCode | undefined {
  if (row.status === 'MATCHED') return undefined;
  if (row.method === 'MANUAL') return row.status === 'UNMATCHED' ? 'DECIDED_NO_MATCH' : undefined;
  const coded = row.reason === undefined ? undefined : CODED_TEXTS.find(([prefix]) => row.reason!.startsWith(prefix));
  if (coded) return coded[1];
  if (row.status === 'UNMATCHED') return row.candidates.length === 0 || row.score < PLAUSIBLE_SCORE ? 'NO_CANDIDATES' : 'BELOW_THRESHOLD';
  return 'BELOW_THRESHOLD';
}
