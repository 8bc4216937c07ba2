/**
 * Statistics aggregates, computed once when the index is built and shipped as a small JSON
 * artifact of their own, so the statistics endpoints never load the search index.
 *
 * Counting rules: a city is a (country, city name) pair, so Paris (France) and Paris (United
 * States) are two cities, while two same-named cities of one country count once. Hotels without
 * a country count in totalHotels only; hotels without a city count in their country's totalHotels
 * but in no city entry.
 */
import { MISSING_CODE } from './columns';
import type { IndexColumns } from './index-model';
import type { CityHotelCount, CountryHotelCount, CountryStatistics, GlobalStatistics } from './types';

/** Aggregates as stored: countries by hotel count desc, each with its cities by hotel count desc. */
export interface StatisticsArtifact {
  totalHotels: number;
  totalCountries: number;
  totalCities: number;
  countries: CountryStatistics[];
}

/** Aggregates ready to answer the statistics endpoints. */
export interface ReferenceStatistics {
  readonly global: GlobalStatistics;
  readonly countryByName: ReadonlyMap<string, CountryStatistics>;
}

/** Higher count first, then name, so that equal counts have a stable order. */
function byCountDescending<T extends { hotelCount: number }>(nameOf: (entry: T) => string) {
  return (a: T, b: T) => b.hotelCount - a.hotelCount || (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);
}

export function computeStatisticsArtifact(columns: IndexColumns): StatisticsArtifact {
  const countryHotels = new Map<number, number>();
  const cityHotelsByCountry = new Map<number, Map<string, number>>();
  const citiesSeen = new Set<string>();
  for (let row = 0; row < columns.hotelCount; row++) {
    const countryCode = columns.country.codes[row]!;
    const cityCode = columns.city.codes[row]!;
    if (cityCode !== MISSING_CODE) citiesSeen.add(`${countryCode}\u0000${columns.city.values[cityCode]}`);
    if (countryCode === MISSING_CODE) continue;
    countryHotels.set(countryCode, (countryHotels.get(countryCode) ?? 0) + 1);
    if (cityCode === MISSING_CODE) continue;
    const cities = cityHotelsByCountry.get(countryCode) ?? new Map<string, number>();
    const city = columns.city.values[cityCode]!;
    cities.set(city, (cities.get(city) ?? 0) + 1);
    cityHotelsByCountry.set(countryCode, cities);
  }
  const countries = [...countryHotels].map(([countryCode, totalHotels]): CountryStatistics => ({
    country: columns.country.values[countryCode]!,
    totalHotels,
    cities: [...(cityHotelsByCountry.get(countryCode) ?? [])]
      .map(([city, hotelCount]): CityHotelCount => ({ city, hotelCount }))
      .sort(byCountDescending((entry) => entry.city)),
  }));
  countries.sort((a, b) => b.totalHotels - a.totalHotels || (a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
  return { totalHotels: columns.hotelCount, totalCountries: countries.length, totalCities: citiesSeen.size, countries };
}

export function serializeStatistics(artifact: StatisticsArtifact): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(artifact));
}

export function loadStatistics(source: Uint8Array | StatisticsArtifact): ReferenceStatistics {
  const artifact: StatisticsArtifact =
    source instanceof Uint8Array ? (JSON.parse(new TextDecoder().decode(source)) as StatisticsArtifact) : source;
  const byCountry: CountryHotelCount[] = artifact.countries.map(({ country, totalHotels }) => ({ country, hotelCount: totalHotels }));
  return {
    global: { totalHotels: artifact.totalHotels, totalCountries: artifact.totalCountries, totalCities: artifact.totalCities, byCountry },
    countryByName: new Map(artifact.countries.map((detail) => [detail.country, detail])),
  };
}

/** GET /reference/statistics. */
export function globalStatistics(statistics: ReferenceStatistics): GlobalStatistics {
  return statistics.global;
}

/** GET /reference/statistics/countries; `limit` is already clamped to 1..200 (clampCountryStatisticsLimit). */
export function topCountries(statistics: ReferenceStatistics, limit: number): CountryHotelCount[] {
  return statistics.global.byCountry.slice(0, limit);
}

/** GET /reference/statistics/countries/{country}: exact, case-sensitive stored name; undefined -> 404. */
export function countryStatistics(statistics: ReferenceStatistics, country: string): CountryStatistics | undefined {
  return statistics.countryByName.get(country);
}
