/**
 * Attribute filters shared by every search mode, resolved once per query to dictionary keys so
 * that checking a hotel is a few array reads.
 */
import { MISSING_CODE, postingList, readString } from './columns';
import type { FilterKeyColumns, FilterKeyLookup, ReferenceSearchIndex } from './index-model';
import { foldText } from '../../platform/text';
import type { ReferenceHotelSummary } from './types';

/** No constraint on a key dimension. */
export const ANY_KEY = -1;

export interface RowFilter {
  countryKey: number;
  cityKey: number;
  regionKey: number;
  /** NaN = no minimum rating. */
  minRating: number;
  requireCoordinates: boolean;
}

export interface FilterValues {
  country?: string;
  city?: string;
  region?: string;
  rating?: number;
  hasCoordinates?: boolean;
}

/** The filter, or undefined when a value names no hotel at all (the answer is then empty). */
export function resolveRowFilter(index: ReferenceSearchIndex, values: FilterValues): RowFilter | undefined {
  const countryKey = resolveKey(index.countryLookup, values.country);
  const cityKey = resolveKey(index.cityLookup, values.city);
  const regionKey = resolveKey(index.regionLookup, values.region);
  if (countryKey === undefined || cityKey === undefined || regionKey === undefined) return undefined;
  return {
    countryKey,
    cityKey,
    regionKey,
    minRating: values.rating ?? Number.NaN,
    requireCoordinates: values.hasCoordinates === true,
  };
}

function resolveKey(lookup: FilterKeyLookup, value: string | undefined): number | undefined {
  if (value === undefined) return ANY_KEY;
  return lookup.get(foldText(value));
}

function rowHasKey(keys: FilterKeyColumns, codes: Uint32Array, row: number, key: number): boolean {
  if (key === ANY_KEY) return true;
  const code = codes[row]!;
  return code !== MISSING_CODE && keys.keyOfValue[code] === key;
}

export function rowPasses(index: ReferenceSearchIndex, filter: RowFilter, row: number): boolean {
  const { columns } = index;
  // A missing rating is NaN, and NaN >= x is false: unrated hotels fail a minimum rating.
  if (!Number.isNaN(filter.minRating) && !(columns.rating[row]! >= filter.minRating)) return false;
  if (filter.requireCoordinates && Number.isNaN(columns.lat[row]!)) return false;
  return (
    rowHasKey(columns.countryKeys, columns.country.codes, row, filter.countryKey) &&
    rowHasKey(columns.cityKeys, columns.city.codes, row, filter.cityKey) &&
    rowHasKey(columns.regionKeys, columns.region.codes, row, filter.regionKey)
  );
}

/** Hotels of the most selective key constraint of the filter, or undefined when none is set. */
export function narrowestKeyList(index: ReferenceSearchIndex, filter: RowFilter): Uint32Array | undefined {
  const { columns } = index;
  const lists = [
    [columns.countryKeys, filter.countryKey],
    [columns.cityKeys, filter.cityKey],
    [columns.regionKeys, filter.regionKey],
  ] as const;
  let narrowest: Uint32Array | undefined;
  for (const [keys, key] of lists) {
    if (key === ANY_KEY) continue;
    const list = postingList(keys.hotels, key);
    if (!narrowest || list.length < narrowest.length) narrowest = list;
  }
  return narrowest;
}

function dictionaryValue(values: readonly string[], codes: Uint32Array, row: number): string | undefined {
  const code = codes[row]!;
  return code === MISSING_CODE ? undefined : values[code];
}

/** The result shape of a hotel: absent values are omitted, never null. */
export function summarize(index: ReferenceSearchIndex, row: number): ReferenceHotelSummary {
  const { columns } = index;
  const summary: ReferenceHotelSummary = { id: readString(columns.ids, row), name: readString(columns.names, row) };
  const country = dictionaryValue(columns.country.values, columns.country.codes, row);
  const city = dictionaryValue(columns.city.values, columns.city.codes, row);
  const region = dictionaryValue(columns.region.values, columns.region.codes, row);
  if (country !== undefined) summary.country = country;
  if (city !== undefined) summary.city = city;
  if (region !== undefined) summary.region = region;
  const rating = columns.rating[row]!;
  if (!Number.isNaN(rating)) summary.rating = rating;
  const lat = columns.lat[row]!;
  if (!Number.isNaN(lat)) {
    summary.lat = lat;
    summary.lon = columns.lon[row]!;
  }
  return summary;
}
