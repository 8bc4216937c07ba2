/**
 * The matching index as bytes, to store (a publication's matching index in the bucket) and read
 * back: v8's structured clone keeps the typed arrays as they are. A snapshot of the older format
 * (string arrays, a Map of supplier codes) still loads.
 */
import { deserialize, serialize } from 'node:v8';
import { textColumnOf, textHashes } from './columns';
import { MatchingIndex, SNAPSHOT_FORMAT, type ReferenceIndexSnapshot } from './matching-index';
import { type SupplierLookup, SupplierLookupBuilder } from './supplier-lookup';

/** The format before the text columns and the supplier lookup (string arrays and a Map then), still read. */
const STRING_ARRAY_FORMAT = 'hotel-matching-index/3';

/** The index as bytes, to store or to hand to another thread. */
export function serializeMatchingIndex(index: MatchingIndex): Buffer {
  return serialize(index.data);
}

export function deserializeMatchingIndex(buffer: Uint8Array): MatchingIndex {
  const data = deserialize(buffer) as ReferenceIndexSnapshot;
  if ((data?.format as string) === STRING_ARRAY_FORMAT) return new MatchingIndex(withTextColumns(data));
  if (data?.format !== SNAPSHOT_FORMAT) throw new Error(`not a ${String(SNAPSHOT_FORMAT)} snapshot`);
  return new MatchingIndex(data);
}

/**
 * A snapshot stored before the text columns (a publication made by an earlier release), as it is
 * now: string arrays become text columns, the supplier-code Map a SupplierLookup.
 */
function withTextColumns(data: ReferenceIndexSnapshot): ReferenceIndexSnapshot {
  const older = data as unknown as Record<'ids' | 'names' | 'postalCodes' | 'addressWords' | 'addressNumbers', string[]> & {
    supplierHotels: Map<string, number> | undefined;
  };
  const postalCodes = textColumnOf(older.postalCodes);
  const addressWords = textColumnOf(older.addressWords);
  let supplierHotels: SupplierLookup | undefined;
  if (older.supplierHotels) {
    const lookup = new SupplierLookupBuilder(older.supplierHotels.size);
    for (const [key, hotel] of older.supplierHotels) lookup.set(key, hotel);
    supplierHotels = lookup.finish();
  }
  return {
    ...data,
    format: SNAPSHOT_FORMAT,
    supplierHotels,
    ids: textColumnOf(older.ids),
    names: textColumnOf(older.names),
    postalCodes,
    addressWords,
    addressNumbers: textColumnOf(older.addressNumbers),
    postalCodeHashes: textHashes(postalCodes),
    addressWordsHashes: textHashes(addressWords),
  };
}
