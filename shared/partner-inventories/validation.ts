/**
 * Validation of an inventory file with the mapping engine's reader: every row is read, bad ones
 * are reported with line and reason, and the good ones are written as chunk files. A file that
 * cannot be read at all, or has no good row, is refused as a whole.
 */
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { readPartnerInventory, type PartnerHotel } from '../mapping';
import { invalidInput } from '../platform/errors';
import { formatCsvRow } from '../platform/files/csv-format';
import { TabularParseError, type TabularLimits } from '../platform/files/tabular';
import type { ObjectStore } from '../platform/objects/object-store';
import { inUtf8Order } from '../platform/objects/block-files';
import { recordCount } from '../platform/metrics';
import { inventoryChunkRows, inventoryObjects, REJECTED_SAMPLE_SIZE, type PartnerInventory, type RejectedRow } from './inventory';

/** What validation counts. */
export const INVENTORY_METRICS = { inventoryRowsRejected: 'InventoryRowsRejected' } as const;

export interface ValidatedRows {
  hotels: PartnerHotel[];
  rejected: RejectedRow[];
}

/** Reads the whole file; throws `invalid_input` when it cannot be read or has no usable row. */
export async function readInventoryFile(
  inventory: Pick<PartnerInventory, 'format' | 'supplierCode'>,
  file: Buffer,
  limits?: TabularLimits,
): Promise<ValidatedRows> {
  const hotels: PartnerHotel[] = [];
  const rejected: RejectedRow[] = [];
  try {
    for await (const row of readPartnerInventory(file, inventory.format, { defaultSupplierCode: inventory.supplierCode, limits })) {
      if ('error' in row) rejected.push({ line: row.line, reason: row.error });
      else hotels.push(row.hotel);
    }
  } catch (error) {
    if (error instanceof TabularParseError) throw invalidInput(`The file cannot be read: ${error.message}`);
    throw error;
  }
  if (hotels.length === 0) {
    const examples = rejected.slice(0, 3).map((row) => `line ${row.line}: ${row.reason}`);
    throw invalidInput(`The file has no usable hotel row${examples.length ? ` (${examples.join('; ')})` : ''}.`);
  }
  return { hotels, rejected };
}

/**
 * Brotli at quality 5: a fifth fewer bytes than gzip on validated rows, for about 5 µs a row; the
 * chunks are kept, and backed up, as long as their inventory.
 */
const CHUNK_COMPRESSION = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/**
 * Writes the chunk files, the rows in partner id order (UTF-8 bytes, as the mapping book keeps its
 * entries), and the rejected-rows file; answers the inventory's new counts. In id order a chunk's
 * rows are neighbours in the book too: a job reads what the book holds of them in a few blocks.
 */
export async function writeValidatedRows(
  objects: ObjectStore,
  inventory: PartnerInventory,
  validated: ValidatedRows,
): Promise<Pick<PartnerInventory, 'hotelCount' | 'rejectedCount' | 'rejectedSample' | 'chunkCount'>> {
  const { rejected } = validated;
  const hotels = inUtf8Order(validated.hotels, (hotel) => hotel.id, 1);
  const chunkRows = inventoryChunkRows(hotels.length);
  const chunkCount = Math.ceil(hotels.length / chunkRows);
  const writes: Promise<void>[] = [];
  for (let index = 0; index < chunkCount; index++) {
    const rows = hotels.slice(index * chunkRows, (index + 1) * chunkRows);
    writes.push(
      objects.put(
        inventoryObjects.chunk(inventory, index),
        brotliCompressSync(rows.map((row) => JSON.stringify(row)).join('\n'), CHUNK_COMPRESSION),
        'application/octet-stream',
      ),
    );
  }
  if (rejected.length > 0) {
    const csv = [formatCsvRow(['line', 'reason']), ...rejected.map((row) => formatCsvRow([row.line, row.reason]))].join('\n');
    writes.push(objects.put(inventoryObjects.rejected(inventory), `${csv}\n`, 'text/csv'));
  }
  await Promise.all(writes);
  if (rejected.length > 0) recordCount(INVENTORY_METRICS.inventoryRowsRejected, rejected.length);
  return {
    hotelCount: hotels.length,
    rejectedCount: rejected.length,
    rejectedSample: rejected.slice(0, REJECTED_SAMPLE_SIZE),
    chunkCount,
  };
}

/** The valid rows of one chunk, as a mapping job reads them. */
export async function readInventoryChunk(
  objects: ObjectStore,
  inventory: Pick<PartnerInventory, 'organizationId' | 'id'>,
  index: number,
): Promise<PartnerHotel[] | undefined> {
  const file = await objects.get(inventoryObjects.chunk(inventory, index));
  const text = file
    ? brotliDecompressSync(file)
    : await objects.get(inventoryObjects.gzipChunk(inventory, index)).then((older) => older && gunzipSync(older));
  if (!text) return undefined;
  return text
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as PartnerHotel);
}
