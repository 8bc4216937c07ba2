/**
 * Find a match now: one to a hundred hotels mapped within the request, against the current
 * reference publication, with the engine, model and modes a job uses. Rows a job would reject are
 * answered as rejected, with the same reason. A request that maps any hotel is charged one mapping
 * a hotel, and at least FIND_MATCH_MIN_CHARGE, in the request (today's allowance, then credits; 403
 * when they do not cover it, and nothing is mapped).
 * The cross-row claim rule applies among the request's hotels, as among a job's rows. A hotel the
 * organization's mapping book holds answers the book's entry (a person's decision wins), unless the
 * request asks for the engine's view or the partner's hotel changed materially since the entry. Asked
 * to, the answers are recorded into the book as a job's rows are, and answered as the entries they make.
 *
 * Nothing is written before the answers are ready, and then all at once: the charge, its receipt and
 * the book's record message in one transaction. So a request that dies or times out before it answers
 * has charged and recorded nothing, and one that dies after is answered again by its retry with the
 * same Idempotency-Key at no new charge (the receipt).
 */
import {
  mapHotels,
  withReferenceFacts,
  matchesBySupplierCode,
  readPartnerInventory,
  type MappingMode,
  type MatchingIndex,
  type PartnerHotel,
} from '../mapping';
import type { Metering } from '../billing';
import {
  materialChange,
  recordingOutcomes,
  type BookEntry,
  type EntryAnswer,
  type EntryId,
  type JobRow,
  type RecordingRequest,
} from '../mapping-book';
import type { Clock } from '../platform/clock';
import type { TransactItem } from '../platform/table';
import { invalidInput } from '../platform/errors';
import { jobRow } from './book-writes';
import { bookEntryId, withPartnerFacts, type PinnedReference, type StoredResult } from './job';
import { connectedSupplierFor, type SupplierLookup } from './lifecycle';

/** Hotels one request may map. */
export const FIND_MATCH_MAX_HOTELS = 100;

/**
 * What a request that maps any hotel is charged at least, in mappings: a request costs about the
 * same whatever it holds (the gateway, the firewall, the function's time, the charge's write), about
 * what nine mappings sell for, so that its cost stays under a fifth of its price (operator's guide,
 * "Find-match requests"). Above it, one mapping a hotel.
 */
export const FIND_MATCH_MIN_CHARGE = 50;

/** The mappings a request that maps this many hotels is charged; one that maps none (all rejected) is charged nothing. */
export const findMatchCharge = (mappedHotels: number) => (mappedHotels === 0 ? 0 : Math.max(FIND_MATCH_MIN_CHARGE, mappedHotels));

/** Instances of find-match that may run at once (its function's reserved concurrency), so that it cannot take the account's concurrency. */
export const FIND_MATCH_MAX_INSTANCES = 20;

export interface FindMatchPorts {
  metering: Pick<Metering, 'standing' | 'charge'>;
  /** The publication to map against: the current one, if it has a matching index. */
  currentReference(): Promise<PinnedReference | undefined>;
  /** The organization's preferred mode, if it set one. */
  defaultMode(organizationId: string): Promise<MappingMode | undefined>;
  /** The matching index of a publication, kept in memory between requests. */
  index(reference: PinnedReference): Promise<MatchingIndex>;
  suppliers: SupplierLookup;
  /** The answers of the book's entries of partner hotels of sources, as they now are, in the order asked. */
  bookEntries(organizationId: string, ids: readonly EntryId[]): Promise<(EntryAnswer | undefined)[]>;
  /** The book's entries whole (what recording writes over), in the order asked. */
  currentEntries(organizationId: string, ids: readonly EntryId[]): Promise<(BookEntry | undefined)[]>;
  /** The write, for the charge's transaction, that has the book record the rows. */
  recordingWrite(request: RecordingRequest, rows: readonly JobRow[]): TransactItem;
  clock: Clock;
}

export interface FindMatchInput {
  organizationId: string;
  /** The hotels as sent: objects with an inventory row's fields. */
  hotels: readonly Record<string, unknown>[];
  /** Default: the organization's preferred mode, else STANDARD. */
  requestedMode: MappingMode | undefined;
  /** The supplier whose codes ID_TO_ID and HYBRID use, for hotels that give a supplierHotelId alone. */
  supplierCode: string | undefined;
  /** BOOK (the default): the book's entry where it holds the hotel; ENGINE: the engine's answer always. */
  view: 'BOOK' | 'ENGINE';
  /** Writes the answers into the book too. */
  record: boolean;
  /** The API key asking: the cause of what it records. */
  requestedBy: string;
  /** Names the request: its records, and (with `receiptId`) its charge. */
  requestId: string;
  /** Names the request as its Idempotency-Key and body do: charged once under it. */
  receiptId: string | undefined;
}

/** Where an answer came from. */
export type AnsweredFrom = 'ENGINE' | 'BOOK';

export type FoundMatch = { index: number } & (
  (Omit<StoredResult, 'chunk'> & { from: AnsweredFrom }) | { status: 'REJECTED'; reason: string; reasonCode: 'INVALID_INPUT' }
);

export interface FindMatchAnswer {
  mode: MappingMode;
  referenceVersionId: string;
  /** In the request's order. */
  results: FoundMatch[];
  /** Mappings charged: findMatchCharge of the hotels mapped, rejected ones apart. */
  charged: number;
}

export async function findMatches(ports: FindMatchPorts, input: FindMatchInput): Promise<FindMatchAnswer> {
  const { organizationId } = input;
  // Read as an inventory is (one JSON object per line), so a hotel is refused for what a job refuses it for.
  const lines = Buffer.from(input.hotels.map((hotel) => JSON.stringify(hotel)).join('\n'), 'utf8');
  const rows: ({ index: number; hotel: PartnerHotel } | { index: number; reason: string })[] = [];
  for await (const row of readPartnerInventory(lines, 'jsonl', { defaultSupplierCode: input.supplierCode })) {
    rows.push(
      'hotel' in row ? { index: row.line - 1, hotel: row.hotel } : { index: row.line - 1, reason: row.error.replace(/^line \d+: /, '') },
    );
  }
  const hotels = rows.flatMap((row) => ('hotel' in row ? [row] : []));

  // Everything the request reads, read at once: each read is a round trip, and none needs another's answer.
  const ids = hotels.map(({ hotel }) => bookEntryId(hotel));
  const records = input.record && hotels.length > 0;
  const [reference, mode, standing, held, whole] = await Promise.all([
    ports.currentReference(),
    input.requestedMode ?? ports.defaultMode(organizationId).then((preferred) => preferred ?? 'STANDARD'),
    hotels.length > 0 ? ports.metering.standing(organizationId, input.receiptId) : undefined,
    input.view === 'BOOK' && !records && hotels.length > 0 ? ports.bookEntries(organizationId, ids) : [],
    // Recording writes over the entries whole; they answer too.
    records ? ports.currentEntries(organizationId, ids) : [],
  ]);
  const supplier = matchesBySupplierCode(mode)
    ? await connectedSupplierFor(ports.suppliers, organizationId, mode, input.supplierCode)
    : undefined;
  if (!reference) throw invalidInput('No reference inventory is published yet: there is nothing to map against.');

  const index = await ports.index(reference);
  const mapped = mapHotels(
    index,
    hotels.map((row) => row.hotel),
    { mode },
  );
  const engine = hotels.map((row, i) => withPartnerFacts(mapped[i]!, row.hotel));

  let entries: readonly (EntryAnswer | undefined)[] = held;
  const writes: TransactItem[] = [];
  if (records) {
    const at = ports.clock.now().toISOString();
    const recording = recordingOutcomes(whole, engine.map(jobRow), at, { kind: 'MATCH', requestedBy: input.requestedBy });
    entries = recording.entries;
    const changed = recording.changed.map(({ row }) => row);
    if (changed.length > 0)
      writes.push(ports.recordingWrite({ organizationId, requestId: input.requestId, requestedBy: input.requestedBy, at }, changed));
  }
  // The one write: charged, receipted and recorded together, or not at all.
  const charged = findMatchCharge(hotels.length);
  if (charged > 0)
    await ports.metering.charge({ organizationId, mappings: charged, supplier, receiptId: input.receiptId, writes }, standing);

  const answerOf = (i: number) =>
    (input.view === 'BOOK' ? bookAnswer(engine[i]!, entries[i]) : undefined) ?? { ...engine[i]!, from: 'ENGINE' as const };
  const byIndex = new Map(hotels.map((row, i) => [row.index, answerOf(i)]));
  const results: FoundMatch[] = rows.map((row) =>
    'hotel' in row
      ? { index: row.index, ...byIndex.get(row.index)! }
      : { index: row.index, status: 'REJECTED', reason: row.reason, reasonCode: 'INVALID_INPUT' },
  );
  return { mode, referenceVersionId: reference.artifactsId, results, charged };
}

/**
 * The book's entry as the answer, where the book holds the hotel as the partner now describes it:
 * not DELETED, and no material change since (a changed hotel is the engine's to answer again).
 */
function bookAnswer(engine: FoundMatchRow, entry: EntryAnswer | undefined): (FoundMatchRow & { from: AnsweredFrom }) | undefined {
  if (!entry || entry.status === 'DELETED' || materialChange(entry.partner, engine.partner) !== undefined) return undefined;
  const { status, method, referenceHotelId, referenceHotelName, score, evidence, candidates, reason } = entry;
  return {
    ...withReferenceFacts(engine, entry),
    status,
    method,
    referenceHotelId,
    referenceHotelName,
    score,
    evidence,
    candidates,
    reason,
    from: 'BOOK',
  };
}

type FoundMatchRow = Omit<StoredResult, 'chunk'> & Required<Pick<StoredResult, 'source' | 'partner'>>;
