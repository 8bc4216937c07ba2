/**
 * What a ZIP archive (an XLSX workbook) expands to: the sizes it declares, read without inflating
 * anything, and the bytes it actually inflates to, counted with a stop. A few megabytes of archive
 * can expand to gigabytes, and the declared sizes are only what the archive says.
 */
import { inflateRawSync } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = 0x08074b50;
/** General purpose flag bit 3: the sizes follow the data, in a data descriptor. */
const SIZES_AFTER_DATA = 0x08;
const STORED = 0;
const DEFLATED = 8;

/** An entry as the archive's central directory lists it. */
interface ListedEntry {
  localHeaderAt: number;
  flags: number;
  method: number;
  compressedSize: number;
  declaredSize: number;
}

/** The central directory's entries and where the directory starts, or undefined when the bytes are not a complete archive. */
function centralDirectory(archive: Buffer): { entries: ListedEntry[]; startsAt: number } | undefined {
  // The end record is the last 22 bytes, followed by a comment of up to 65,535 bytes.
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 65_535); at--) {
    if (archive.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = archive.readUInt16LE(end + 10);
  const startsAt = archive.readUInt32LE(end + 16);
  const entries: ListedEntry[] = [];
  for (let entry = 0, at = startsAt; entry < count; entry++) {
    if (at + 46 > archive.length || archive.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) return undefined;
    entries.push({
      flags: archive.readUInt16LE(at + 8),
      method: archive.readUInt16LE(at + 10),
      compressedSize: archive.readUInt32LE(at + 20),
      // ZIP64 archives mark the size 0xFFFFFFFF: more than any workbook taken here.
      declaredSize: archive.readUInt32LE(at + 24),
      localHeaderAt: archive.readUInt32LE(at + 42),
    });
    at += 46 + archive.readUInt16LE(at + 28) + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
  }
  return { entries, startsAt };
}

/**
 * The total uncompressed size a ZIP archive declares for its entries (its central directory), or
 * undefined when the bytes are not a complete archive. Read before inflating anything.
 */
export function zipExpandedSize(archive: Buffer): number | undefined {
  return centralDirectory(archive)?.entries.reduce((total, entry) => total + entry.declaredSize, 0);
}

/** How an archive's entries inflated: all within the bytes allowed, past them (stopped there), or not at all. */
export type Inflation = 'within' | 'over' | 'unreadable';

/**
 * Inflates every entry of the archive, keeping nothing, and stops as soon as the bytes inflated
 * pass `maxBytes`: each entry in one synchronous call bounded to what is left of them (zlib's
 * maxOutputLength), so the answer comes after about `maxBytes` of work, and once it is given
 * nothing goes on inflating. The entries must lie end to end from the archive's start to its
 * central directory: a streaming reader (exceljs reads workbooks so) would also inflate what hides
 * in a gap between them. `inflatedBytes`: what was inflated before the answer.
 */
export function inflateWithin(archive: Buffer, maxBytes: number): { inflation: Inflation; inflatedBytes: number } {
  const directory = centralDirectory(archive);
  if (!directory) return { inflation: 'unreadable', inflatedBytes: 0 };
  let inflatedBytes = 0;
  let expectedAt = 0;
  for (const entry of [...directory.entries].sort((a, b) => a.localHeaderAt - b.localHeaderAt)) {
    const at = entry.localHeaderAt;
    if (at !== expectedAt || at + 30 > archive.length || archive.readUInt32LE(at) !== LOCAL_HEADER)
      return { inflation: 'unreadable', inflatedBytes };
    const dataAt = at + 30 + archive.readUInt16LE(at + 26) + archive.readUInt16LE(at + 28);
    const dataEnd = dataAt + entry.compressedSize;
    if (dataEnd > directory.startsAt) return { inflation: 'unreadable', inflatedBytes };
    expectedAt = dataEnd;
    // A data descriptor after the data: its signature is optional.
    if (entry.flags & SIZES_AFTER_DATA)
      expectedAt += dataEnd + 4 <= archive.length && archive.readUInt32LE(dataEnd) === DATA_DESCRIPTOR ? 16 : 12;
    const left = maxBytes - inflatedBytes;
    const data = archive.subarray(dataAt, dataEnd);
    if (entry.method === STORED) inflatedBytes += data.length;
    else if (entry.method !== DEFLATED) return { inflation: 'unreadable', inflatedBytes };
    else {
      try {
        inflatedBytes += inflateRawSync(data, { maxOutputLength: left + 1 }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          return { inflation: 'over', inflatedBytes: inflatedBytes + left + 1 };
        return { inflation: 'unreadable', inflatedBytes };
      }
    }
    if (inflatedBytes > maxBytes) return { inflation: 'over', inflatedBytes };
  }
  if (expectedAt !== directory.startsAt) return { inflation: 'unreadable', inflatedBytes };
  return { inflation: 'within', inflatedBytes };
}
