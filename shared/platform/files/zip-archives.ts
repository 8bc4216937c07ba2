/**
 * What a ZIP archive (an XLSX workbook) expands to: the sizes it declares, read without inflating
 * anything, and the bytes it actually inflates to, counted with a stop. A few megabytes of archive
 * can expand to gigabytes, and the declared sizes are only what the archive says.
 */
import type { Entry } from 'unzipper';

/**
 * The total uncompressed size a ZIP archive declares for its entries (its central directory), or
 * undefined when the bytes are not a complete archive. Read before inflating anything.
 */
export function zipExpandedSize(archive: Buffer): number | undefined {
  const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
  const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
  // The end record is the last 22 bytes, followed by a comment of up to 65,535 bytes.
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 65_535); at--) {
    if (archive.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const entries = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  let total = 0;
  for (let entry = 0; entry < entries; entry++) {
    if (at + 46 > archive.length || archive.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) return undefined;
    // ZIP64 archives mark the size 0xFFFFFFFF: more than any workbook taken here.
    total += archive.readUInt32LE(at + 24);
    at += 46 + archive.readUInt16LE(at + 28) + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
  }
  return total;
}

/** How an archive's entries inflated: all within the bytes allowed, past them (stopped there), or not at all. */
export type Inflation = 'within' | 'over' | 'unreadable';

/**
 * Inflates every entry of the archive, keeping nothing, and stops as soon as the bytes inflated
 * pass `maxBytes`. The entries are read as a streaming reader reads them (unzipper, which exceljs
 * reads workbooks with: this inflates what it would, entries the central directory leaves out
 * included). Once stopped, nothing more is inflated: the entry being read is destroyed, and the
 * inflater behind it, with no reader, waits to be collected.
 */
export async function inflateWithin(archive: Buffer, maxBytes: number): Promise<Inflation> {
  const { Parse } = await import('unzipper');
  return new Promise((resolve) => {
    const zip = Parse();
    let inflated = 0;
    let entriesOpen = 0;
    let archiveRead = false;
    let settled = false;
    const settle = (outcome: Inflation) => {
      if (settled) return;
      settled = true;
      zip.destroy();
      resolve(outcome);
    };
    zip.on('entry', (entry: Entry) => {
      entriesOpen += 1;
      entry.on('data', (chunk: Buffer) => {
        inflated += chunk.length;
        if (inflated <= maxBytes) return;
        entry.destroy();
        settle('over');
      });
      entry.on('end', () => {
        entriesOpen -= 1;
        if (archiveRead && entriesOpen === 0) settle('within');
      });
      // Also after settling: a destroyed entry may still be written to.
      entry.on('error', () => settle('unreadable'));
    });
    // Also after settling: the parser's pending reads fail once it is destroyed.
    zip.on('error', () => settle('unreadable'));
    zip.on('close', () => {
      archiveRead = true;
      if (entriesOpen === 0) settle('within');
    });
    zip.end(archive);
  });
}
