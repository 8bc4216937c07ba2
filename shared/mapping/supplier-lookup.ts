/**
 * Supplier hotel codes -> reference hotel (ID_TO_ID and HYBRID matching), as plain data: a
 * TextKeyTable's data and the hotel of each key. A snapshot of a million hotels with 2.5 million
 * codes then loads at the speed of copying memory, where a Map of as many string keys took
 * seconds to rebuild on every cold start.
 */
import { TextKeyTable, textKeyEntry, type TextKeys } from './columns';

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
    if (this.keys.count === this.hotels.length && this.keys.entryOf(key) < 0) throw new RangeError(`SupplierLookupBuilder: more than ${this.hotels.length} keys`);
    const seen = this.keys.claim(key);
    this.hotels[seen >= 0 ? seen : this.keys.count - 1] = hotel;
  }

  finish(): SupplierLookup {
    return { ...this.keys.toData(), hotels: this.hotels.slice(0, this.keys.count) };
  }
}
