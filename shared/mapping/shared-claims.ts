/**
 * One reference hotel is one partner hotel: when several partner rows are MATCHED to the same
 * reference hotel, the likeliest keeps it, and so does a row that is the same hotel listed twice
 * in the partner's file; any other goes to REVIEW. It reads only the rows and their results, so a
 * job applies it once over all its chunks' results, exactly as `npm run map` does over the file.
 */
import { round } from './candidate-evidence';
import type { PartnerHotel } from './hotels';
import { compareNames } from './name-comparison';
import { preparePartner, type PreparedPartner } from './partner-row';
import type { MatchingIndex } from './reference-index';
import { distanceMeters } from './similarity';
import type { MappingResult } from './types';

/** A row and its result (changed in place when the rule takes its hotel away). */
export interface ClaimRow {
  input: PartnerHotel;
  result: MappingResult;
}

/** Two partner rows this alike, this near, are the same hotel listed twice by the partner. */
const DUPLICATE_PARTNER_NAME_SIMILARITY = 0.9;
const DUPLICATE_PARTNER_DISTANCE_METERS = 250;

/**
 * Resolves rows MATCHED to one reference hotel: a supplier-code match first, then the higher score
 * (then the partner id, so the outcome never depends on the rows' order) keeps the hotel. A weaker
 * claimant goes to REVIEW with its score held below `matchThreshold`. Returns the rows it changed.
 */
export function resolveSharedClaims(index: MatchingIndex, rows: readonly ClaimRow[], matchThreshold: number): ClaimRow[] {
  const claimsByHotel = new Map<string, ClaimRow[]>();
  for (const row of rows) {
    const { status, referenceHotelId } = row.result;
    if (status !== 'MATCHED' || referenceHotelId === null) continue;
    const claims = claimsByHotel.get(referenceHotelId);
    if (claims) claims.push(row);
    else claimsByHotel.set(referenceHotelId, [row]);
  }
  const changed: ClaimRow[] = [];
  for (const claims of claimsByHotel.values()) {
    if (claims.length < 2) continue;
    claims.sort(strongestFirst);
    const winner = claims[0]!;
    const winnerPartner = preparePartner(index, winner.input);
    for (const claimant of claims.slice(1)) {
      if (claimant.result.method === 'ID') continue;
      if (arePartnerDuplicates(winnerPartner, preparePartner(index, claimant.input))) {
        claimant.result.reason = `same hotel as partner row ${winner.result.partnerHotelId} (listed twice)`;
      } else {
        claimant.result.status = 'REVIEW';
        claimant.result.score = round(Math.min(claimant.result.score, matchThreshold - 0.001), 3);
        claimant.result.reason = `reference hotel also claimed by partner row ${winner.result.partnerHotelId} with a stronger match`;
      }
      changed.push(claimant);
    }
  }
  return changed;
}

function strongestFirst(a: ClaimRow, b: ClaimRow): number {
  return (
    Number(b.result.method === 'ID') - Number(a.result.method === 'ID') ||
    b.result.score - a.result.score ||
    (a.result.partnerHotelId < b.result.partnerHotelId ? -1 : a.result.partnerHotelId > b.result.partnerHotelId ? 1 : 0)
  );
}

/** Two partner rows describing the same hotel (a duplicate in the partner's own file). */
function arePartnerDuplicates(a: PreparedPartner, b: PreparedPartner): boolean {
  if (compareNames(a.name, b.name).similarity < DUPLICATE_PARTNER_NAME_SIMILARITY) return false;
  if (Number.isNaN(a.lat) || Number.isNaN(b.lat)) return true;
  return distanceMeters(a.lat, a.lon, b.lat, b.lon) <= DUPLICATE_PARTNER_DISTANCE_METERS;
}
