/**
 * Mapping a whole partner inventory: every row through the matcher (matchHotels), then the
 * cross-row rule for partner rows that claim the same reference hotel (shared-claims.ts). A
 * mapping job runs the first per chunk and the second once over all its chunks' results.
 */
import { createHash } from 'node:crypto';
import type { PartnerHotel } from './hotels';
import { MATCH_MODEL, type MatchModel } from './match-decision';
import { decisionThresholds, HotelMatcher } from './matcher';
import type { MatchingIndex } from './matching-index';
import { resolveClaimsAmong } from './shared-claims';
import type { MappingOptions, MappingResult } from './types';

/**
 * The rules' revision: raise it with any change that may change an answer for the same row and
 * reference. A job answers a row the mapping book holds from the same row, revision and publication
 * from the book, without the engine (mapping-jobs/unchanged-rows.ts).
 */
const RULES_REVISION = 2;

const MODEL_DIGEST = createHash('sha256').update(JSON.stringify(MATCH_MODEL)).digest('base64url').slice(0, 12);

/** What answers are a function of, besides the row and the reference: the rules' revision and the committed model. */
export const ENGINE_VERSION = `${RULES_REVISION}.${MODEL_DIGEST}`;

/**
 * The version whose answers carried no reference hotel facts (revision 1): the same answers but for
 * them. A row the book answered then is answered again for its facts, and not charged.
 */
export const FACTLESS_ENGINE_VERSION = `1.${MODEL_DIGEST}`;

/** Each row's result on its own, before the cross-row rule. */
export function matchHotels(
  index: MatchingIndex,
  partners: Iterable<PartnerHotel>,
  options: MappingOptions,
  model?: MatchModel,
): MappingResult[] {
  const matcher = new HotelMatcher(index, options, model);
  const results: MappingResult[] = [];
  for (const partner of partners) results.push(matcher.match(partner));
  return results;
}

export function mapHotels(
  index: MatchingIndex,
  partners: readonly PartnerHotel[],
  options: MappingOptions,
  model?: MatchModel,
): MappingResult[] {
  const results = matchHotels(index, partners, options, model);
  resolveClaimsAmong(index, results, partners, decisionThresholds(options, model).match);
  return results;
}
