/**
 * Public entry point of the in-memory reference search (pure: no AWS, no HTTP).
 *
 * Build (indexing job):   const index = buildSearchIndex(hotels);
 *                         const artifact = serializeIndex(index);           // -> S3
 *                         const stats = serializeStatistics(computeStatisticsArtifact(index.columns));
 * Serve (Lambda cold start): const index = loadIndex(bytesFromS3);
 *                         search(index, query) / advancedSearch(index, query)
 *                         statistics: loadStatistics(statsBytes) + globalStatistics / topCountries / countryStatistics
 *
 * Modes of search(), per the spec: q present -> name mode (country, region, city filters apply);
 * lat, lon and radius all present -> geo mode (country and city apply, region and rating do not);
 * otherwise filter mode (country, city, region, minimum rating), sorted by name. limit and offset
 * apply after the mode; total counts matches before pagination.
 */
import { searchNearby } from './geo-search';
import { searchFiltered } from './filtered-search';
import { searchByName } from './name-search';
import { resolveRowFilter } from './row-filter';
import type { ReferenceSearchIndex } from './index-model';
import type { AdvancedSearchQuery, ReferenceSearchQuery, SearchMode, SearchPage } from './types';

export { buildSearchIndex } from './index-builder';
export { loadIndex, serializeIndex, type SerializeOptions } from './artifact';
export type { ReferenceSearchIndex } from './index-model';
export * from './query-limits';
export * from './statistics';
export type * from './types';

const EMPTY_PAGE: SearchPage = { results: [], total: 0 };

/** A blank q (only spaces) counts as absent, so "?q=&country=FR" is a filter search. */
export function selectSearchMode(query: Pick<ReferenceSearchQuery, 'q' | 'lat' | 'lon' | 'radius'>): SearchMode {
  if (query.q !== undefined && query.q.trim() !== '') return 'name';
  if (query.lat !== undefined && query.lon !== undefined && query.radius !== undefined) return 'geo';
  return 'filter';
}

/** GET /api/v1/reference/search with validated, clamped parameters. */
export function search(index: ReferenceSearchIndex, query: ReferenceSearchQuery): SearchPage {
  const { limit, offset } = query;
  switch (selectSearchMode(query)) {
    case 'name': {
      const filter = resolveRowFilter(index, { country: query.country, region: query.region, city: query.city });
      return filter ? searchByName(index, query.q as string, filter, limit, offset) : EMPTY_PAGE;
    }
    case 'geo': {
      const filter = resolveRowFilter(index, { country: query.country, city: query.city });
      const circle = { lat: query.lat as number, lon: query.lon as number, radiusKm: query.radius as number };
      return filter ? searchNearby(index, circle, filter, limit, offset) : EMPTY_PAGE;
    }
    case 'filter': {
      const filter = resolveRowFilter(index, { country: query.country, city: query.city, region: query.region, rating: query.rating });
      return filter ? searchFiltered(index, { filter, sortBy: 'name', sortDir: 'asc', limit, offset }) : EMPTY_PAGE;
    }
  }
}

/** GET /api/v1/reference/search/advanced with validated, clamped parameters. */
export function advancedSearch(index: ReferenceSearchIndex, query: AdvancedSearchQuery): SearchPage {
  const filter = resolveRowFilter(index, {
    country: query.country,
    city: query.city,
    rating: query.rating,
    hasCoordinates: query.hasCoordinates,
  });
  if (!filter) return EMPTY_PAGE;
  const name = query.name?.trim();
  return searchFiltered(index, {
    filter,
    nameWordPrefixes: name ? name : undefined,
    sortBy: query.sortBy ?? 'name',
    sortDir: query.sortDir ?? 'asc',
    limit: query.limit,
    offset: query.offset,
  });
}
