/**
 * Rows of an inventory file as `npm run map` reads them: good rows' hotels handed on in batches,
 * bad rows kept with their lines (the first few listed, the rest counted) and reported on stderr.
 */
import { type InventoryRow, type InventoryRowError, rowErrorInFile } from '../../shared/mapping/inventory';

/** Bad rows listed one by one; beyond this only counted. */
const MAX_LISTED_ERRORS = 20;

/** Bad rows of a file: the first few kept, the rest counted. */
export class RowErrors {
  readonly listed: InventoryRowError[] = [];
  count = 0;
  note(row: InventoryRowError): void {
    this.count += 1;
    if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push(row);
  }
  /** Adds the errors of a later part of the file, read with its lines numbered from 1; the part starts on line `firstLine`. */
  appendPart(part: { listed: readonly InventoryRowError[]; count: number }, firstLine: number): void {
    for (const row of part.listed) if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push(rowErrorInFile(row, firstLine));
    this.count += part.count;
  }
  report(file: string, hotels: number): void {
    for (const { line, error } of this.listed) process.stderr.write(`${file}:${line}: ${error}\n`);
    if (this.count > MAX_LISTED_ERRORS) process.stderr.write(`${file}: ${this.count - MAX_LISTED_ERRORS} more bad rows not listed\n`);
    process.stderr.write(`${file}: ${hotels} hotels read${this.count > 0 ? `, ${this.count} bad rows skipped` : ''}\n`);
  }
}

/** Reads inventory rows, handing each batch of good rows' hotels to `take`; returns how many. */
export async function readRows<T>(
  batches: AsyncIterable<InventoryRow<T>[]>,
  errors: RowErrors,
  take: (hotels: T[]) => void,
): Promise<number> {
  let count = 0;
  const hotels: T[] = [];
  for await (const rows of batches) {
    for (const row of rows) {
      if ('hotel' in row) hotels.push(row.hotel);
      else errors.note(row);
    }
    count += hotels.length;
    take(hotels);
    hotels.length = 0;
  }
  return count;
}
