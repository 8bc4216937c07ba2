/**
 * Supplier hotel codes -> reference hotel (ID_TO_ID and HYBRID matching), as plain data: an
 * open-addressing table over typed arrays and one text column of keys. A snapshot of a million
 * hotels with 2.5 million codes then loads at the speed of copying memory, where a Map of as many
 * string keys took seconds to rebuild on every cold start.
 */
import { hashText, type TextColumn, TextColumnBuilder, textEquals } from './columns';

export interface SupplierLookup {
  /** Each key (supplierKey), in the order keys were first set. */
  keys: TextColumn;
  /** hashText of each key. */
  hashes: Int32Array;
  /** The hotel of each key. */
  hotels: Int32Array;
  /** Key number + 1 per slot, 0 for an empty slot; a power of two long, at least 1.5 times the keys (short probes, a smaller snapshot). */
  slots: Int32Array;
}

/** The hotel of `key` in `lookup`, or -1. */
export function supplierLookupHotel(lookup: SupplierLookup, key: string): number {
  const hash = hashText(key);
  const mask = lookup.slots.length - 1;
  for (let slot = hash & mask; lookup.slots[slot] !== 0; slot = (slot + 1) & mask) {
    const entry = lookup.slots[slot]! - 1;
    if (lookup.hashes[entry] === hash && textEquals(lookup.keys, entry, key)) return lookup.hotels[entry]!;
  }
  return -1;
}

/** Builds a SupplierLookup of at most `capacity` keys; setting a key again gives it the later hotel. */
export class SupplierLookupBuilder {
  private readonly keys = new TextColumnBuilder();
  private readonly hashes: Int32Array;
  private readonly hotels: Int32Array;
  private readonly slots: Int32Array;

  constructor(capacity: number) {
    this.hashes = new Int32Array(capacity);
    this.hotels = new Int32Array(capacity);
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(2, 1.5 * capacity))));
  }

  set(key: string, hotel: number): void {
    const hash = hashText(key);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (this.hashes[entry] === hash && this.keys.equals(entry, key)) {
        this.hotels[entry] = hotel;
        return;
      }
    }
    const entry = this.keys.count;
    if (entry === this.hotels.length) throw new RangeError(`SupplierLookupBuilder: more than ${entry} keys`);
    this.keys.add(key);
    this.hashes[entry] = hash;
    this.hotels[entry] = hotel;
    this.slots[slot] = entry + 1;
  }

  finish(): SupplierLookup {
    const count = this.keys.count;
    return { keys: this.keys.packed(), hashes: this.hashes.slice(0, count), hotels: this.hotels.slice(0, count), slots: this.slots };
  }
}
