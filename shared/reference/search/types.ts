/**
 * Shapes the HTTP layer exchanges with the in-memory reference search. Queries arrive already
 * validated and clamped (see query-limits).
 */

/** A reference hotel as listed in search results: the spec's reference hotel without metadata. */
export interface ReferenceHotelSummary {
  id: string;
  name: string;
  country?: string;
  city?: string;
  region?: string;
  rating?: number;
  lat?: number;
  lon?: number;
}

/** GET /api/v1/reference/search. Mode: q -> name; lat, lon and radius -> geo; else filter. */
export interface ReferenceSearchQuery {
  /** Fuzzy hotel name. */
  q?: string;
  lat?: number;
  lon?: number;
  /** Kilometres, greater than 0. */
  radius?: number;
  /** Country name or ISO alpha-2 code, case-insensitive; applies in every mode. */
  country?: string;
  /** Region or state; name and filter modes. */
  region?: string;
  /** City; every mode (this project's choice for geo mode). */
  city?: string;
  /** Minimum star rating; filter mode only. */
  rating?: number;
  /** Already clamped to 1..100. */
  limit: number;
  /** Already checked to be >= 0. */
  offset: number;
}

export type SearchMode = 'name' | 'geo' | 'filter';

export type AdvancedSortBy = 'name' | 'rating' | 'created';
export type SortDirection = 'asc' | 'desc';

/** GET /api/v1/reference/search/advanced. */
export interface AdvancedSearchQuery {
  /** Every word must begin a word of the hotel name (case- and accent-insensitive, any order). */
  name?: string;
  country?: string;
  city?: string;
  /** Minimum star rating. */
  rating?: number;
  /** When true, only hotels with latitude and longitude. */
  hasCoordinates?: boolean;
  sortBy?: AdvancedSortBy;
  sortDir?: SortDirection;
  limit: number;
  offset: number;
}

/** One page of results; total counts every match before pagination. */
export interface SearchPage {
  results: ReferenceHotelSummary[];
  total: number;
}

export interface CountryHotelCount {
  country: string;
  hotelCount: number;
}

export interface CityHotelCount {
  city: string;
  hotelCount: number;
}

/** GET /api/v1/reference/statistics. */
export interface GlobalStatistics {
  totalHotels: number;
  totalCountries: number;
  totalCities: number;
  byCountry: CountryHotelCount[];
}

/** GET /api/v1/reference/statistics/countries/{country}. */
export interface CountryStatistics {
  country: string;
  totalHotels: number;
  cities: CityHotelCount[];
}
