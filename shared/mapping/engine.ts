/**
 * Mapping a whole partner inventory: every row through the matcher (matchHotels), then the
 * cross-row rule for partner rows that claim the same reference hotel (shared-claims.ts). A
 * mapping job runs the first per chunk and the second once over all its chunks' results.
 */
import type { PartnerHotel } from './hotels';
import type { MatchModel } from './match-decision';
import { decisionThresholds, HotelMatcher } from './matcher';
import type { MatchingIndex } from './matching-index';
import { resolveClaimsAmong } from './shared-claims';
import type { MappingOptions, MappingResult } from './types';

/** Each row's result on its own, before the cross-row rule. */
export function matchHotels(index: MatchingIndex, partners: Iterable<PartnerHotel>, options: MappingOptions, model?: MatchModel): MappingResult[] {
  const matcher = new HotelMatcher(index, options, model);
  const results: MappingResult[] = [];
  for (const partner of partners) results.push(matcher.match(partner));
  return results;
}

export function mapHotels(index: MatchingIndex, partners: readonly PartnerHotel[], options: MappingOptions, model?: MatchModel): MappingResult[] {
  const results = matchHotels(index, partners, options, model);
  resolveClaimsAmong(index, results, partners, decisionThresholds(options, model).match);
  return results;
}
