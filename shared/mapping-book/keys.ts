/**
 * The book's keys. An entry's key names it in the book's files and items, and sorts as DynamoDB sorts
 * keys (UTF-8 bytes). An index key is what the book's entry index finds entries by: the reference's
 * changes (a hotel an entry points at, a place near an entry still unmatched) and the listings'
 * filters (a status, a method, a source).
 */
import { isRetriable, type BookEntry, type EntryMethod, type EntryStatus } from './entries';

/** Entry keys sort as DynamoDB sorts them (UTF-8 bytes): by partner id, then source. */
export function entryKey(entry: Pick<BookEntry, 'partnerHotelId' | 'source'>): string {
  return `${entry.partnerHotelId}\u0001${entry.source}`;
}

/** The partner id and source an entry key names. */
export function entryIdOf(key: string): Pick<BookEntry, 'partnerHotelId' | 'source'> {
  const split = key.lastIndexOf('\u0001');
  return { partnerHotelId: key.slice(0, split), source: key.slice(split + 1) };
}

export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A range of entry keys: from `lower` (or the start) up to `upper` excluded (or the end). */
export interface KeyRange {
  lower: string | null;
  upper: string | null;
}

export const inRange = (key: string, range: KeyRange) =>
  (range.lower === null || compareKeys(key, range.lower) >= 0) && (range.upper === null || compareKeys(key, range.upper) < 0);

// --- the entry index ---------------------------------------------------------------------------

/** Within this distance of a hotel new in the reference, an entry the engine left UNMATCHED is tried again. */
export const NEAR_NEW_HOTEL_METERS = 2_000;
/** The grid entries are found by place: cells this many degrees a side (about 2.2 km north to south). */
const CELL_DEGREES = 0.02;
const METERS_PER_DEGREE = 111_320;

const cellKey = (latCell: number, lonCell: number) => `C ${latCell} ${lonCell}`;
const hotelKey = (referenceHotelId: string) => `H ${referenceHotelId}`;

/**
 * The keys the book finds an entry by when the reference changes: each reference hotel it points at
 * (its own and its decision's), and for an entry the engine left UNMATCHED with a pin, its place.
 */
export function referenceKeys(entry: BookEntry): string[] {
  if (entry.status === 'DELETED') return [];
  const keys = new Set<string>();
  if (entry.referenceHotelId !== null) keys.add(hotelKey(entry.referenceHotelId));
  if (entry.decision?.referenceHotelId) keys.add(hotelKey(entry.decision.referenceHotelId));
  if (isRetriable(entry))
    keys.add(cellKey(Math.floor(entry.partner.latitude! / CELL_DEGREES), Math.floor(entry.partner.longitude! / CELL_DEGREES)));
  return [...keys];
}

/** The keys a listing filtered by status, method or source finds an entry by. */
export const listingKey = {
  status: (status: EntryStatus) => `S ${status}`,
  method: (method: EntryMethod | 'NONE') => `M ${method}`,
  source: (source: string) => `O ${source}`,
};

/** Every key the book's index finds an entry by: the reference's (referenceKeys) and the listings'. */
export function indexKeys(entry: BookEntry): string[] {
  return [
    ...referenceKeys(entry),
    listingKey.status(entry.status),
    listingKey.method(entry.method ?? 'NONE'),
    listingKey.source(entry.source),
  ];
}

/** The keys of the hotels given. */
export const hotelKeys = (referenceHotelIds: Iterable<string>) => [...referenceHotelIds].map(hotelKey);

/** The place keys of every cell within NEAR_NEW_HOTEL_METERS of a point. */
export function placeKeysNear(lat: number, lon: number): string[] {
  const latSpan = Math.ceil(NEAR_NEW_HOTEL_METERS / (METERS_PER_DEGREE * CELL_DEGREES));
  const lonSpan = Math.ceil(NEAR_NEW_HOTEL_METERS / (METERS_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 0.01) * CELL_DEGREES));
  const [latCell, lonCell] = [Math.floor(lat / CELL_DEGREES), Math.floor(lon / CELL_DEGREES)];
  const keys: string[] = [];
  for (let dLat = -latSpan; dLat <= latSpan; dLat++)
    for (let dLon = -lonSpan; dLon <= lonSpan; dLon++) keys.push(cellKey(latCell + dLat, lonCell + dLon));
  return keys;
}
