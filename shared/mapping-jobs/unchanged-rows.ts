/**
 * A job's row unchanged since the mapping book's entry is answered from the book, without the
 * engine, and is not charged. Unchanged means the entry's answer was computed from the same row
 * (every field the engine may read), in the same mode through the same supplier, by the same engine
 * version, against the same publication: the engine would answer it the same. A digest of all of
 * these, the row's basis, goes with its answer into the job's results and then the book's entry,
 * where the next job compares it.
 */
import { createHash } from 'node:crypto';
import {
  ENGINE_VERSION,
  FACTLESS_ENGINE_VERSION,
  matchHotels,
  referenceFactsIn,
  type MappingResult,
  type MatchingIndex,
  type PartnerHotel,
} from '../mapping';
import type { EngineAnswer, EntryId } from '../mapping-book';
import { bookEntryId, withPartnerFacts, type MappingJob, type StoredResult } from './job';

/** Every field of a partner row, in a fixed order; the compiler refuses the list when a field is missing. */
const ROW_FIELDS = Object.keys({
  id: true,
  name: true,
  address: true,
  city: true,
  region: true,
  postalCode: true,
  country: true,
  lat: true,
  lon: true,
  rating: true,
  supplierCode: true,
  supplierHotelId: true,
} satisfies Record<keyof PartnerHotel, true>) as (keyof PartnerHotel)[];

/** What the engine's answer for the row is a function of, as a digest. */
export function rowBasis(
  job: Pick<MappingJob, 'mode' | 'supplier' | 'reference'>,
  row: PartnerHotel,
  engineVersion = ENGINE_VERSION,
): string {
  const facts = ROW_FIELDS.map((field) => row[field] ?? null);
  const basis = [engineVersion, job.mode, job.supplier?.code ?? null, job.reference.artifactsId, facts];
  // 96 bits: compared only with the same entry's, and kept with every entry of the book.
  return createHash('sha256').update(JSON.stringify(basis)).digest('base64url').slice(0, 16);
}

/** A row's result as a chunk's results file holds it, before the cross-row rule. */
export type ChunkResult = MappingResult &
  Required<Pick<StoredResult, 'source' | 'partner' | 'basis'>> &
  Pick<StoredResult, 'unchanged' | 'unclaimed'>;

export interface RowAnswerPorts {
  /** The engine's answers the mapping book holds for the entries (undefined where it holds none), in the order asked. */
  heldAnswers(job: MappingJob, ids: readonly EntryId[]): Promise<(EngineAnswer | undefined)[]>;
  index(job: MappingJob): Promise<MatchingIndex>;
}

/** How a chunk's rows were answered, and where the time went. */
export interface ChunkAnswers {
  results: ChunkResult[];
  /** Rows the engine answered (the rest, unchanged, came from the book). */
  mapped: number;
  bookReadMs: number;
  indexLoadMs: number;
  matchMs: number;
}

/**
 * The rows' results, in their order: from the book where the entry's answer has the row's basis, by
 * the engine otherwise. The matching index is loaded only when a row needs the engine.
 */
export async function answerRows(ports: RowAnswerPorts, job: MappingJob, rows: readonly PartnerHotel[]): Promise<ChunkAnswers> {
  const started = performance.now();
  const bases = rows.map((row) => rowBasis(job, row));
  const held = await ports.heldAnswers(job, rows.map(bookEntryId));
  const read = performance.now();
  const changed = rows.flatMap((row, i) => (held[i]?.basis === bases[i] ? [] : [{ row, i }]));
  // Answered before answers carried their hotel's facts, and unchanged since: the engine answers it again for them, free.
  const refreshed = new Set(
    changed.flatMap(({ row, i }) =>
      held[i]?.basis !== undefined && held[i].basis === rowBasis(job, row, FACTLESS_ENGINE_VERSION) ? [i] : [],
    ),
  );
  const index = changed.length > 0 ? await ports.index(job) : undefined;
  const loaded = performance.now();
  const engine = index
    ? matchHotels(
        index,
        changed.map(({ row }) => row),
        { mode: job.mode },
      )
    : [];
  const answers = new Map(changed.map(({ i }, n) => [i, engine[n]!]));
  const results = rows.map((row, i): ChunkResult => {
    const mapped = answers.get(i);
    return {
      ...withPartnerFacts(mapped ?? answerHeld(row, held[i]!), row),
      basis: bases[i]!,
      ...((mapped === undefined || refreshed.has(i)) && { unchanged: true as const }),
    };
  });
  return { results, mapped: changed.length, bookReadMs: read - started, indexLoadMs: loaded - read, matchMs: performance.now() - loaded };
}

/** The engine's answer the book keeps, as the engine gave it: before the cross-row rule, which the job applies again. */
function answerHeld(row: PartnerHotel, held: EngineAnswer): MappingResult {
  const { status, method, referenceHotelId, referenceHotelName, score, evidence, candidates, reason, unclaimed } = held;
  const facts = referenceFactsIn(held);
  const own = unclaimed ?? { status, score, reason };
  return {
    partnerHotelId: row.id,
    partnerHotelName: row.name,
    referenceHotelId,
    referenceHotelName,
    ...facts,
    status: own.status,
    method,
    score: own.score,
    evidence,
    candidates,
    ...(own.reason !== undefined && { reason: own.reason }),
  };
}
