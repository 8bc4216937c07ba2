/**
 * The hotel records of a data version, for detail reads: pages of about 256 hotels, each a gzip
 * JSON object beside the other reference files, a hotel's page chosen by a hash of its id. An
 * import writes its version's pages once (4,000 objects for a million hotels, written in parallel,
 * instead of a million table items); a read fetches one page and keeps recent pages in memory,
 * which is safe because a version's pages never change.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ObjectStore } from '../platform/objects/object-store';
import { RECORD_PAGES_PREFIX, type StoredReferenceHotel } from './inventory';

export const HOTELS_PER_PAGE = 256;
/** Pages a container keeps parsed (about 64 × 100 KB). */
const CACHED_PAGES = 64;
const PARALLEL_WRITES = 16;

/** Where one data version's records are. */
export interface RecordPages {
  dataVersionId: string;
  recordPages: number;
}

export function pageCountFor(hotelCount: number): number {
  return Math.max(1, Math.ceil(hotelCount / HOTELS_PER_PAGE));
}

/** FNV-1a over the lower-case id: stable across processes and versions of Node. */
export function pageOf(hotelId: string, pageCount: number): number {
  let hash = 0x811c9dc5;
  for (const char of hotelId.toLowerCase()) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash % pageCount;
}

function pageKey(dataVersionId: string, page: number): string {
  return `${RECORD_PAGES_PREFIX}${dataVersionId}/hotels/${page}.json.gz`;
}

/** Writes a data version's records; answers how many pages they took. */
export async function writeRecordPages(
  objects: ObjectStore,
  dataVersionId: string,
  hotels: readonly StoredReferenceHotel[],
): Promise<number> {
  const pageCount = pageCountFor(hotels.length);
  const pages = Array.from({ length: pageCount }, (): StoredReferenceHotel[] => []);
  for (const hotel of hotels) pages[pageOf(hotel.id, pageCount)]!.push(hotel);
  let next = 0;
  const writer = async () => {
    for (let page = next++; page < pageCount; page = next++) {
      await objects.put(pageKey(dataVersionId, page), gzipSync(JSON.stringify(pages[page])), 'application/gzip');
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_WRITES }, writer));
  return pageCount;
}

export async function deleteRecordPages(objects: ObjectStore, version: RecordPages): Promise<void> {
  const keys = Array.from({ length: version.recordPages }, (_, page) => pageKey(version.dataVersionId, page));
  for (let start = 0; start < keys.length; start += 1000) await objects.delete(keys.slice(start, start + 1000));
}

export class HotelRecords {
  private readonly pages = new Map<string, Promise<Map<string, StoredReferenceHotel>>>();

  constructor(private readonly objects: ObjectStore) {}

  async get(hotelId: string, version: RecordPages): Promise<StoredReferenceHotel | undefined> {
    const id = hotelId.toLowerCase();
    return (await this.page(pageKey(version.dataVersionId, pageOf(id, version.recordPages)))).get(id);
  }

  private page(key: string): Promise<Map<string, StoredReferenceHotel>> {
    let page = this.pages.get(key);
    if (page) {
      // Most recently used last: the oldest entry is the first to go.
      this.pages.delete(key);
    } else {
      page = this.objects.get(key).then((bytes) => {
        const hotels = bytes ? (JSON.parse(gunzipSync(bytes).toString('utf8')) as StoredReferenceHotel[]) : [];
        return new Map(hotels.map((hotel) => [hotel.id, hotel]));
      });
      page.catch(() => this.pages.delete(key));
    }
    this.pages.set(key, page);
    while (this.pages.size > CACHED_PAGES) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }
}
