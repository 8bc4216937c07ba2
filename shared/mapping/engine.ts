/**
 * Mapping a whole partner inventory: every row through the matcher, then the cross-row rule for
 * partner rows that claim the same reference hotel (shared-claims.ts).
 */
import type { PartnerHotel } from './hotels';
import type { MatchModel } from './match-decision';
import { HotelMatcher } from './matcher';
import type { MatchingIndex } from './reference-index';
import { resolveSharedClaims, type ClaimRow } from './shared-claims';
import type { MappingOptions, MappingResult } from './types';

export function mapHotels(index: MatchingIndex, partners: Iterable<PartnerHotel>, options: MappingOptions, model?: MatchModel): MappingResult[] {
  const matcher = new HotelMatcher(index, options, model);
  const rows: ClaimRow[] = [];
  for (const input of partners) rows.push({ input, result: matcher.match(input) });
  resolveSharedClaims(index, rows, matcher.thresholds.match);
  return rows.map((row) => row.result);
}
