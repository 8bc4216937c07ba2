/**
 * Mapping a whole partner inventory: every row through the matcher, then the cross-row rule for
 * partner rows that claim the same reference hotel.
 */
import type { PartnerHotel } from './hotels';
import { HotelMatcher } from './matcher';
import type { MatchingIndex } from './reference-index';
import { preparePartner, round } from './scoring';
import type { MappingOptions, MappingResult } from './types';

/**
 * What the cross-row rule keeps of a row: its input and outcome, not the matcher's working state
 * (prepared names, scored candidates). Holding that for every row until the end made each
 * young-generation garbage collection copy it, about three times the collector's work on a large
 * file; the few rows in a conflict are matched again instead (matching is deterministic).
 */
export interface RowOutcome {
  input: PartnerHotel;
  result: MappingResult;
  /** Hotel index of result.referenceHotelId, -1 when none. */
  hotel: number;
}

export function mapHotels(index: MatchingIndex, partners: Iterable<PartnerHotel>, options: MappingOptions): MappingResult[] {
  const matcher = new HotelMatcher(index, options);
  const rows: RowOutcome[] = [];
  for (const input of partners) {
    const { result, hotel } = matcher.matchRow(input);
    rows.push({ input, result, hotel });
  }
  resolveSharedClaims(matcher, rows);
  return rows.map((row) => row.result);
}

/**
 * One reference hotel is one partner hotel. When several rows are MATCHED to the same hotel, the
 * strongest claim (supplier id first, then score) keeps it. A weaker claimant that looks like the
 * same hotel listed twice by the partner keeps it too; any other takes its best candidate nobody
 * else holds if that is still a confident match, or goes to REVIEW.
 */
export function resolveSharedClaims(matcher: HotelMatcher, rows: RowOutcome[]): void {
  const claimsByHotel = new Map<number, RowOutcome[]>();
  for (const row of rows) {
    if (row.result.status !== 'MATCHED') continue;
    const claims = claimsByHotel.get(row.hotel);
    if (claims) claims.push(row);
    else claimsByHotel.set(row.hotel, [row]);
  }
  for (const [hotel, claims] of claimsByHotel) {
    if (claims.length < 2) continue;
    claims.sort((a, b) => Number(b.result.method === 'ID') - Number(a.result.method === 'ID') || b.result.score - a.result.score);
    const winner = claims[0]!;
    const winnerPartner = preparePartner(matcher.index, winner.input);
    for (const claimant of claims.slice(1)) {
      if (claimant.result.method === 'ID') continue;
      if (matcher.arePartnerDuplicates(winnerPartner, preparePartner(matcher.index, claimant.input))) {
        claimant.result.reason = `same hotel as partner row ${winner.result.partnerHotelId} (listed twice)`;
        continue;
      }
      reassign(matcher, claimant, hotel, winner.result.partnerHotelId, claimsByHotel);
    }
  }
}

function reassign(matcher: HotelMatcher, row: RowOutcome, lostHotel: number, holder: string, claimsByHotel: Map<number, RowOutcome[]>): void {
  const { partner, scored } = matcher.matchRow(row.input);
  const remaining = scored.filter((candidate) => candidate.hotel !== lostHotel && !claimsByHotel.has(candidate.hotel));
  const alternative = remaining[0];
  if (alternative) {
    const remainingOdds = remaining.reduce((total, candidate) => total + Math.exp(candidate.logOdds), 0);
    const probability = Math.exp(alternative.logOdds) / (1 + remainingOdds);
    if (probability >= matcher.thresholds.match) {
      // The runners-up still show the hotel that was lost (a reviewer wants to see it), so their
      // shares are of every candidate's odds.
      const totalOdds = scored.reduce((total, candidate) => total + Math.exp(candidate.logOdds), 0);
      row.hotel = alternative.hotel;
      row.result = matcher.result(
        partner,
        alternative.hotel,
        'MATCHED',
        'FUZZY',
        probability,
        alternative,
        matcher.summaries(scored.filter((candidate) => candidate !== alternative), totalOdds),
        `best candidate ${row.result.referenceHotelId} is held by partner row ${holder}`,
      );
      claimsByHotel.set(alternative.hotel, [row]);
      return;
    }
  }
  row.result.status = 'REVIEW';
  row.result.score = round(Math.min(row.result.score, matcher.thresholds.match - 0.001), 3);
  row.result.reason = `reference hotel also claimed by partner row ${holder} with a stronger match`;
}
