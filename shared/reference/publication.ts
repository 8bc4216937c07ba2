/**
 * Publishing the reference inventory: an import writes a new data version and its artifacts; a
 * duplicate merge republishes the artifacts without the merged hotels. Readers switch to a
 * publication only when the single CURRENT pointer is replaced, after everything it points to
 * has been written, so nobody ever sees half an import.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type ReferenceHotel,
  buildMatchingIndex,
  distanceMeters,
  referenceFactsOfRecord,
  sameReferenceFacts,
  serializeMatchingIndex,
} from '../mapping';
import { conflict, invalidInput } from '../platform/errors';
import type { Clock } from '../platform/clock';
import {
  MATCHING_INDEX_PREFIX,
  MOVED_METERS,
  RECORD_PAGES_PREFIX,
  REFERENCE_CHANGES_PREFIX,
  REFERENCE_FILES_PREFIX,
  type CurrentReference,
  type MergeRecord,
  type ReferenceChanges,
  type StoredReferenceHotel,
} from './inventory';
import type { ObjectStore } from '../platform/objects/object-store';
import { deleteRecordPages, writeRecordPages } from './hotel-records';
import { buildSearchIndex, computeStatisticsArtifact, serializeIndex, serializeStatistics } from './search/search-index';

export interface ReferencePublicationPorts {
  store: {
    getCurrent(): Promise<CurrentReference | undefined>;
    publish(next: CurrentReference, expectedArtifactsId: string | undefined): Promise<boolean>;
    deleteHotels(dataVersionId: string, hotelIds: readonly string[]): Promise<void>;
    listMerges(): Promise<MergeRecord[]>;
  };
  objects: ObjectStore;
  clock: Clock;
  newId: () => string;
}

export interface RejectedRow {
  line: number;
  reason: string;
}

export interface ImportSummary {
  dataVersionId: string;
  artifactsId: string;
  hotelCount: number;
  rejectedCount: number;
  rejected: RejectedRow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Imports rows (from `readReferenceInventory`) as a new version. Bad rows are reported with line
 * and reason and skipped; a file without one good row publishes nothing.
 */
export async function importReferenceInventory(
  ports: ReferencePublicationPorts,
  rows: AsyncIterable<{ line: number; hotel: ReferenceHotel } | { line: number; error: string }>,
  source: string,
): Promise<ImportSummary> {
  const previous = await ports.store.getCurrent();
  const importedAt = ports.clock.now().toISOString();
  const dataVersionId = ports.newId();
  const hotels: StoredReferenceHotel[] = [];
  const rejected: RejectedRow[] = [];
  for await (const row of rows) {
    if ('error' in row) rejected.push({ line: row.line, reason: row.error });
    else if (!UUID.test(row.hotel.id)) rejected.push({ line: row.line, reason: `id "${row.hotel.id}" is not a UUID` });
    else
      hotels.push({
        ...row.hotel,
        id: row.hotel.id.toLowerCase(),
        createdAt: row.hotel.createdAt ?? importedAt,
        dataVersionId,
        source,
        importedAt,
      });
  }
  if (hotels.length === 0) {
    throw invalidInput(`The file has no valid hotel rows${rejected[0] ? ` (line ${rejected[0].line}: ${rejected[0].reason})` : ''}.`);
  }
  const recordPages = await writeRecordPages(ports.objects, dataVersionId, hotels);
  const previousLive = previous && (await readPublishedHotels(ports, previous));
  const published = await publishArtifacts(ports, hotels, { dataVersionId, source, importedAt, recordPages }, previous, previousLive);
  return { dataVersionId, artifactsId: published.artifactsId, hotelCount: published.hotelCount, rejectedCount: rejected.length, rejected };
}

/**
 * Republishes the current data version without the hotels merged since (after duplicate merges).
 * Nothing happens when the current publication already leaves out every recorded merge, so a
 * burst of merges costs one publication, not one each.
 */
export async function republishWithoutMerged(ports: ReferencePublicationPorts): Promise<CurrentReference | undefined> {
  const [current, merges] = await Promise.all([ports.store.getCurrent(), ports.store.listMerges()]);
  if (!current) return undefined;
  if (current.mergeCount === merges.length) return current;
  const hotels = await readPublishedHotels(ports, current);
  return publishArtifacts(ports, hotels, current, current, hotels);
}

/** The hotels a publication holds (its snapshot file). */
async function readPublishedHotels(
  ports: Pick<ReferencePublicationPorts, 'objects'>,
  publication: CurrentReference,
): Promise<StoredReferenceHotel[]> {
  const snapshot = await ports.objects.get(publication.artifacts.snapshotKey);
  if (!snapshot) throw new Error(`The snapshot ${publication.artifacts.snapshotKey} is missing.`);
  return readSnapshot(snapshot);
}

async function publishArtifacts(
  ports: ReferencePublicationPorts,
  hotels: readonly StoredReferenceHotel[],
  version: Pick<CurrentReference, 'dataVersionId' | 'source' | 'importedAt' | 'recordPages'>,
  current: CurrentReference | undefined,
  currentHotels: readonly StoredReferenceHotel[] | undefined,
): Promise<CurrentReference> {
  const merges = await ports.store.listMerges();
  const merged = new Set(merges.map((merge) => merge.duplicateHotelId));
  const live = hotels.filter((hotel) => !merged.has(hotel.id));
  const index = buildSearchIndex(live);
  const artifactsId = ports.newId();
  const prefix = `${REFERENCE_FILES_PREFIX}${artifactsId}`;
  const artifacts = {
    snapshotKey: `${prefix}/reference-hotels.jsonl.gz`,
    indexKey: `${prefix}/search-index.bin`,
    statisticsKey: `${prefix}/statistics.json`,
    matchingIndexKey: `${MATCHING_INDEX_PREFIX}${artifactsId}.v8`,
  };
  const publishedAt = ports.clock.now().toISOString();
  const number = (current?.number ?? 0) + 1;
  const changes = changesSince(currentHotels ?? [], live, merges, {
    artifactsId,
    previousArtifactsId: current?.artifactsId ?? null,
    number,
    publishedAt,
    matchingIndexKey: artifacts.matchingIndexKey,
  });
  await Promise.all([
    ports.objects.put(artifacts.snapshotKey, writeSnapshot(live), 'application/gzip'),
    ports.objects.put(artifacts.indexKey, serializeIndex(index), 'application/octet-stream'),
    ports.objects.put(
      artifacts.statisticsKey,
      Buffer.from(serializeStatistics(computeStatisticsArtifact(index.columns))),
      'application/json',
    ),
    ports.objects.put(artifacts.matchingIndexKey, serializeMatchingIndex(buildMatchingIndex(live)), 'application/octet-stream'),
    ports.objects.put(referenceChangesKey(artifactsId), gzipSync(JSON.stringify(changes)), 'application/gzip'),
  ]);
  const next: CurrentReference = {
    dataVersionId: version.dataVersionId,
    source: version.source,
    importedAt: version.importedAt,
    recordPages: version.recordPages,
    artifactsId,
    artifacts,
    hotelCount: live.length,
    publishedAt,
    mergeCount: merged.size,
    number,
    previous: current && { dataVersionId: current.dataVersionId, artifacts: current.artifacts, recordPages: current.recordPages },
  };
  if (!(await ports.store.publish(next, current?.artifactsId))) {
    throw conflict('Another reference publication finished first; run the import again.');
  }
  if (current?.previous) await retire(ports, current.previous, next);
  return next;
}

/**
 * Deletes a publication two steps back: its artifacts (its matching index a day later), and its
 * hotel records unless a newer publication still uses that data version (a merge keeps the data
 * version).
 */
async function retire(
  ports: ReferencePublicationPorts,
  retired: NonNullable<CurrentReference['previous']>,
  next: CurrentReference,
): Promise<void> {
  const { matchingIndexKey, ...searchArtifacts } = retired.artifacts;
  await ports.objects.delete(Object.values(searchArtifacts));
  // Mapping jobs pin the matching index they started on: it goes a day later, not now.
  if (matchingIndexKey) await ports.objects.expireLater([matchingIndexKey]);
  const stillUsed = [next.dataVersionId, next.previous?.dataVersionId];
  if (stillUsed.includes(retired.dataVersionId)) return;
  if (retired.recordPages)
    return deleteRecordPages(ports.objects, { dataVersionId: retired.dataVersionId, recordPages: retired.recordPages });
  // A version imported when records were table items: its id list says which to delete.
  const legacyIds = `${RECORD_PAGES_PREFIX}${retired.dataVersionId}/hotel-ids.json.gz`;
  const ids = await ports.objects.get(legacyIds);
  if (ids) await ports.store.deleteHotels(retired.dataVersionId, JSON.parse(gunzipSync(ids).toString('utf8')) as string[]);
  await ports.objects.delete([legacyIds]);
}

/** Where a publication's changes are (kept: its followers may be several publications behind). */
export const referenceChangesKey = (artifactsId: string) => `${REFERENCE_CHANGES_PREFIX}${artifactsId}.json.gz`;

/** A publication's changes; undefined for one made before publications recorded them. */
export async function readReferenceChanges(objects: Pick<ObjectStore, 'get'>, artifactsId: string): Promise<ReferenceChanges | undefined> {
  const bytes = await objects.get(referenceChangesKey(artifactsId));
  return bytes && (JSON.parse(gunzipSync(bytes).toString('utf8')) as ReferenceChanges);
}

/** What `live` changes against the hotels the publication before it held (`before`). */
function changesSince(
  before: readonly StoredReferenceHotel[],
  live: readonly StoredReferenceHotel[],
  merges: readonly MergeRecord[],
  publication: Pick<ReferenceChanges, 'artifactsId' | 'previousArtifactsId' | 'number' | 'publishedAt' | 'matchingIndexKey'>,
): ReferenceChanges {
  const liveById = new Map(live.map((hotel) => [hotel.id, hotel]));
  const beforeIds = new Set(before.map((hotel) => hotel.id));
  const merged = merges
    .filter((merge) => beforeIds.has(merge.duplicateHotelId))
    .map((merge) => {
      const survivor = liveById.get(merge.mergedInto);
      return {
        hotelId: merge.duplicateHotelId,
        mergedInto: merge.mergedInto,
        mergedIntoName: survivor?.name ?? null,
        ...(survivor && { mergedIntoFacts: referenceFactsOfRecord(survivor) }),
      };
    });
  const mergedIds = new Set(merged.map((merge) => merge.hotelId));
  const changed: NonNullable<ReferenceChanges['changed']> = [];
  for (const was of before) {
    const now = liveById.get(was.id);
    if (!now) continue;
    const moved = pinMoved(was, now);
    const facts = referenceFactsOfRecord(now);
    if (moved || now.name !== was.name || !sameReferenceFacts(facts, referenceFactsOfRecord(was)))
      changed.push({ id: now.id, name: now.name, moved, facts });
  }
  return {
    ...publication,
    merged,
    removed: [...beforeIds].filter((id) => !liveById.has(id) && !mergedIds.has(id)),
    // The first publication adds every hotel, and nothing follows it yet: its list would be the whole reference.
    added:
      publication.previousArtifactsId === null
        ? []
        : live
            .filter((hotel) => !beforeIds.has(hotel.id))
            .map(({ id, lat, lon }) => ({ id, ...(lat !== undefined && lon !== undefined && { lat, lon }) })),
    changed,
  };
}

/** Whether a hotel's pin moved more than MOVED_METERS, or was given or taken away. */
function pinMoved(was: Pick<ReferenceHotel, 'lat' | 'lon'>, now: Pick<ReferenceHotel, 'lat' | 'lon'>): boolean {
  const pinned = (hotel: Pick<ReferenceHotel, 'lat' | 'lon'>) => hotel.lat !== undefined && hotel.lon !== undefined;
  if (pinned(was) !== pinned(now)) return true;
  return pinned(was) && distanceMeters(was.lat!, was.lon!, now.lat!, now.lon!) > MOVED_METERS;
}

function writeSnapshot(hotels: readonly StoredReferenceHotel[]): Buffer {
  return gzipSync(hotels.map((hotel) => `${JSON.stringify(hotel)}\n`).join(''));
}

function readSnapshot(bytes: Buffer): StoredReferenceHotel[] {
  return gunzipSync(bytes)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as StoredReferenceHotel);
}
