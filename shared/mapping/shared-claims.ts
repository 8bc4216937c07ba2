/**
 * One reference hotel is one partner hotel: when several partner rows are MATCHED to the same
 * reference hotel, the likeliest keeps it, and so does a row that is the same hotel listed twice
 * in the partner's file; any other goes to REVIEW. It reads the results and, for the rows in a
 * conflict only, their input rows, so a job applies it once over all its chunks' results, exactly
 * as `npm run map` does over the whole file.
 */
import { round } from './candidate-evidence';
import { REASONS } from './reasons';
import type { PartnerHotel } from './hotels';
import { compareNames } from './name-comparison';
import { preparePartner, type PreparedPartner } from './partner-row';
import type { MatchingIndex } from './matching-index';
import { distanceMeters } from './similarity';
import type { MappingResult } from './types';

/** Two partner rows this alike, this near, are the same hotel listed twice by the partner. */
const DUPLICATE_PARTNER_NAME_SIMILARITY = 0.9;
const DUPLICATE_PARTNER_DISTANCE_METERS = 250;

/** The MATCHED results that share their reference hotel with another, by hotel: the rows the rule reads. */
export function sharedClaims(results: Iterable<MappingResult>): MappingResult[][] {
  const claimsByHotel = new Map<string, MappingResult[]>();
  for (const result of results) {
    if (result.status !== 'MATCHED' || result.referenceHotelId === null) continue;
    const claims = claimsByHotel.get(result.referenceHotelId);
    if (claims) claims.push(result);
    else claimsByHotel.set(result.referenceHotelId, [result]);
  }
  return [...claimsByHotel.values()].filter((claims) => claims.length > 1);
}

/**
 * Resolves shared claims (sharedClaims' groups), changing their results in place: a supplier-code
 * match first, then the higher score, then the partner id (so the outcome never depends on the
 * rows' order) keeps the hotel. A weaker claimant that looks like the same hotel listed twice keeps
 * it too; any other goes to REVIEW with its score held below `matchThreshold`. `inputOf` gives the
 * row of a claimant. Returns the results it changed.
 */
export function resolveSharedClaims(
  index: MatchingIndex,
  shared: readonly MappingResult[][],
  inputOf: (partnerHotelId: string) => PartnerHotel,
  matchThreshold: number,
): MappingResult[] {
  const changed: MappingResult[] = [];
  for (const claims of shared) {
    claims.sort(strongestFirst);
    const winner = claims[0]!;
    const winnerRow = preparePartner(index, inputOf(winner.partnerHotelId));
    for (const claimant of claims.slice(1)) {
      if (claimant.method === 'ID') continue;
      if (arePartnerDuplicates(winnerRow, preparePartner(index, inputOf(claimant.partnerHotelId)))) {
        claimant.reason = REASONS.listedTwice(winner.partnerHotelId);
      } else {
        claimant.status = 'REVIEW';
        claimant.score = round(Math.min(claimant.score, matchThreshold - 0.001), 3);
        claimant.reason = REASONS.claimedByStronger(winner.partnerHotelId);
      }
      changed.push(claimant);
    }
  }
  return changed;
}

/** The rule over results whose rows are all at hand (`npm run map`, mapHotels): `partners` holds every row of `results`. */
export function resolveClaimsAmong(
  index: MatchingIndex,
  results: readonly MappingResult[],
  partners: readonly PartnerHotel[],
  matchThreshold: number,
): MappingResult[] {
  const byId = new Map(partners.map((partner) => [partner.id, partner]));
  return resolveSharedClaims(index, sharedClaims(results), (partnerHotelId) => byId.get(partnerHotelId)!, matchThreshold);
}

function strongestFirst(a: MappingResult, b: MappingResult): number {
  return (
    Number(b.method === 'ID') - Number(a.method === 'ID') ||
    b.score - a.score ||
    (a.partnerHotelId < b.partnerHotelId ? -1 : a.partnerHotelId > b.partnerHotelId ? 1 : 0)
  );
}

/** Two partner rows describing the same hotel (a duplicate in the partner's own file). */
function arePartnerDuplicates(a: PreparedPartner, b: PreparedPartner): boolean {
  if (compareNames(a.name, b.name).similarity < DUPLICATE_PARTNER_NAME_SIMILARITY) return false;
  if (Number.isNaN(a.lat) || Number.isNaN(b.lat)) return true;
  return distanceMeters(a.lat, a.lon, b.lat, b.lon) <= DUPLICATE_PARTNER_DISTANCE_METERS;
}
