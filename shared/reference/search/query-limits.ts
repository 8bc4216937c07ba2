/**
 * Paging rules of the reference search and statistics endpoints (spec "Limits"). The request
 * schemas take integers in the one form (wholeNumberParam) and clamp to these bounds; these
 * functions apply the defaults, and clamp again for callers that skip the HTTP layer.
 */

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MIN = 1;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_OFFSET_DEFAULT = 0;
export const SEARCH_OFFSET_MIN = 0;
export const COUNTRY_STATISTICS_LIMIT_DEFAULT = 20;
export const COUNTRY_STATISTICS_LIMIT_MIN = 1;
export const COUNTRY_STATISTICS_LIMIT_MAX = 200;

function clampInteger(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** limit of search and advanced search: default 20, clamped to 1..100. */
export function clampSearchLimit(limit: number | undefined): number {
  return clampInteger(limit, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MIN, SEARCH_LIMIT_MAX);
}

/** true when an offset is acceptable (absent, or an integer >= 0); the HTTP layer answers 400 otherwise. */
export function isValidSearchOffset(offset: number | undefined): boolean {
  return offset === undefined || (Number.isInteger(offset) && offset >= 0);
}

/** offset of search and advanced search: default 0; callers reject negatives first (isValidSearchOffset). */
export function resolveSearchOffset(offset: number | undefined): number {
  return offset === undefined ? SEARCH_OFFSET_DEFAULT : Math.max(0, Math.trunc(offset));
}

/** limit of statistics/countries: default 20, clamped to 1..200. */
export function clampCountryStatisticsLimit(limit: number | undefined): number {
  return clampInteger(limit, COUNTRY_STATISTICS_LIMIT_DEFAULT, COUNTRY_STATISTICS_LIMIT_MIN, COUNTRY_STATISTICS_LIMIT_MAX);
}
