/**
 * The runtime's reference inventory, in three services so that each function builds (and
 * bundles) only what it uses: the store alone; the warm published index for search and
 * statistics; and the ports publication and duplicate rules work through.
 */
import { randomUUID } from 'node:crypto';
import { referenceFactsOfRecord, type ReferenceHotelShown } from '../mapping';
import { objectStoreOf } from '../platform/objects/services';
import { queueOf } from '../platform/queue/services';
import { service, type Runtime } from '../platform/runtime';
import { tableOf } from '../platform/table';
import type { DuplicatePorts } from './duplicates';
import { HotelRecords } from './hotel-records';
import type { StoredReferenceHotel } from './inventory';
import { PublishedReference } from './published-reference';
import { referencePublicationQueue } from './queue';
import { ReferenceStore } from './store';

/** The current publication pointer, merges and duplicate reports. */
export const referenceStoreOf = /* @__PURE__ */ service((runtime) => new ReferenceStore(tableOf(runtime)));

/** Hotel records by id, recent pages kept per container. */
export const referenceHotelsOf = /* @__PURE__ */ service((runtime) => new HotelRecords(objectStoreOf(runtime)));

/** A hotel of the current data version (merged duplicates included), by id. */
export async function findReferenceHotel(runtime: Runtime, hotelId: string): Promise<StoredReferenceHotel | undefined> {
  const current = await referenceStoreOf(runtime).getCurrent({ consistent: false });
  return current && referenceHotelsOf(runtime).get(hotelId, current);
}

/** A hotel of the current data version as results show it: its id, name, place and supplier codes. */
export async function referenceHotelShown(runtime: Runtime, hotelId: string): Promise<ReferenceHotelShown | undefined> {
  const hotel = await findReferenceHotel(runtime, hotelId);
  return hotel && { referenceHotelId: hotel.id, referenceHotelName: hotel.name, ...referenceFactsOfRecord(hotel) };
}

/** The current publication's search index and statistics, kept warm per container. */
export const publishedReferenceOf = /* @__PURE__ */ service(
  (runtime) => new PublishedReference(referenceStoreOf(runtime), objectStoreOf(runtime)),
);

/**
 * What imports, republications and duplicate reports work through. The object store is built on
 * first use: reporting and resolving a duplicate touch no file, and their functions have no bucket.
 */
export const referencePortsOf = /* @__PURE__ */ service((runtime): DuplicatePorts => ({
  store: referenceStoreOf(runtime),
  get objects() {
    return objectStoreOf(runtime);
  },
  get hotels() {
    return referenceHotelsOf(runtime);
  },
  clock: runtime.clock,
  newId: randomUUID,
  requestRepublication: (reportId: string) => queueOf(runtime, referencePublicationQueue).send({ reportId }),
}));
