/**
 * Supplier hotel codes -> reference hotel (ID_TO_ID and HYBRID matching), as plain data: a
 * TextKeyTable's data and the hotel of each key. A snapshot of a million hotels with 2.5 million
 * codes then loads at the speed of copying memory, where a Map of as many string keys took
 * seconds to rebuild on every cold start.
 */
import { TextKeyTable, textAt, textKeyEntry, type TextKeys } from './columns';

export interface SupplierLookup extends TextKeys {
  /** The hotel of each key (supplierKey). */
  hotels: Int32Array;
}

/** The hotel of `key` in `lookup`, or -1. */
export function supplierLookupHotel(lookup: SupplierLookup, key: string): number {
  const entry = textKeyEntry(lookup, key);
  return entry < 0 ? -1 : lookup.hotels[entry]!;
}

/** Builds a SupplierLookup of at most `capacity` keys; setting a key again gives it the later hotel. */
export class SupplierLookupBuilder {
  private readonly keys: TextKeyTable;
  private readonly hotels: Int32Array;

  constructor(capacity: number) {
    this.keys = new TextKeyTable(capacity);
    this.hotels = new Int32Array(capacity);
  }

  set(key: string, hotel: number): void {
    if (this.keys.count === this.hotels.length && this.keys.entryOf(key) < 0)
      throw new RangeError(`SupplierLookupBuilder: more than ${this.hotels.length} keys`);
    const seen = this.keys.claim(key);
    this.hotels[seen >= 0 ? seen : this.keys.count - 1] = hotel;
  }

  finish(): SupplierLookup {
    return { ...this.keys.toData(), hotels: this.hotels.slice(0, this.keys.count) };
  }
}

/** Each hotel's keys in a SupplierLookup: the keys of hotel h are entries[offsets[h]] to entries[offsets[h + 1]] (excluded). */
export interface SupplierCodesByHotel {
  offsets: Uint32Array;
  entries: Int32Array;
}

/** The lookup turned around, hotel to keys, by a counting sort over its entries: linear in the codes, built once per index. */
export function supplierCodesByHotel(lookup: SupplierLookup, hotelCount: number): SupplierCodesByHotel {
  const offsets = new Uint32Array(hotelCount + 1);
  for (const hotel of lookup.hotels) offsets[hotel + 1]!++;
  for (let hotel = 0; hotel < hotelCount; hotel++) offsets[hotel + 1]! += offsets[hotel]!;
  const next = offsets.slice(0, hotelCount);
  const entries = new Int32Array(lookup.hotels.length);
  lookup.hotels.forEach((hotel, entry) => (entries[next[hotel]!++] = entry));
  return { offsets, entries };
}

/** A hotel's codes, supplier code -> that supplier's hotel id, from its keys (`CODE\0id`, see supplierKey). */
export function supplierCodesOf(lookup: SupplierLookup, byHotel: SupplierCodesByHotel, hotel: number): Record<string, string> {
  const codes: Record<string, string> = {};
  for (let k = byHotel.offsets[hotel]!; k < byHotel.offsets[hotel + 1]!; k++) {
    const key = textAt(lookup.keys, byHotel.entries[k]!);
    const split = key.indexOf('\u0000');
    codes[key.slice(0, split)] = key.slice(split + 1);
  }
  return codes;
}
