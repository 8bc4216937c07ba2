/**
 * Maps the partner rows of `npm run map` (infra/cli/map.ts) on this thread and on worker threads
 * (this module again). The index's typed arrays are copied once into shared memory, which every
 * worker reads in place (only its strings are copied to each worker); every worker gets all the
 * rows. Each thread matches one chunk of rows set aside for it (so every thread takes part: the
 * run lasts at least until the slowest worker has started, received the index and matched that
 * chunk), then takes chunks from a shared counter until none are left, so a worker that starts
 * late or runs slow takes fewer. Matching a row does not depend on the others, so the outcomes are
 * the ones one thread gives; the cross-row rule then runs here over all of them, as mapHotels runs
 * it. Rows a failed worker had taken are matched here.
 *
 * Importing this module does nothing else, except on the worker thread it starts itself.
 */
import { isMainThread, parentPort, type Worker, workerData } from 'node:worker_threads';
// The engine's own modules, not the package's index: a worker starts faster without the file readers.
import { resolveClaimsAmong } from '../../shared/mapping/shared-claims';
import type { PartnerHotel } from '../../shared/mapping/hotels';
import { HotelMatcher } from '../../shared/mapping/matcher';
import { MatchingIndex, type ReferenceIndexSnapshot } from '../../shared/mapping/matching-index';
import { shareMatchingIndex } from '../../shared/mapping/matching-index-sharing';
import type { MappingMode, MappingResult } from '../../shared/mapping/types';
import { startModuleWorker, WorkerAnswers } from './module-worker';

/** Rows a thread takes at a time: large enough that the counter is rarely touched, small enough to even out the end. */
const CHUNK_ROWS = 256;

/** What a worker is given. */
export interface MatchRowsRequest {
  role: 'match-rows';
  /** Its thread number (this thread is 0): its first chunk is the one set aside for it. */
  thread: number;
  /** The index's data, its typed arrays in shared memory (one copy for every thread). */
  index: ReferenceIndexSnapshot;
  partners: readonly PartnerHotel[];
  mode: MappingMode;
  /** Int32Array over it: the position of the next row nobody has taken (after the chunks set aside). */
  nextRow: SharedArrayBuffer;
}

/** The results in input order, and how many rows each thread matched (this one first). */
export interface ThreadedMapping {
  results: MappingResult[];
  rowsPerThread: number[];
}

/** What it sends back: the rows it matched, by position in `partners`. */
type MatchRowsReply = { ok: true; positions: number[]; results: MappingResult[] } | { ok: false; reason: string };

export interface ThreadOptions {
  mode: MappingMode;
  /** Threads wanted, this one included; fewer run when there is not a chunk of rows for each. */
  threads: number;
  /** Called after each chunk this thread matches, with how many rows all threads have been handed so far. */
  onProgress?: (rowsHandedOut: number) => void;
  /** Starts a worker on this module (tests start others, to see a worker fail). */
  startWorker?: (request: MatchRowsRequest) => Worker;
}

/** Maps the rows on up to `threads` threads (this one included). */
export async function mapOnThreads(
  index: MatchingIndex,
  partners: readonly PartnerHotel[],
  options: ThreadOptions,
): Promise<ThreadedMapping> {
  const { mode, onProgress, startWorker = (request) => startModuleWorker(import.meta.url, request) } = options;
  const used = Math.max(1, Math.min(options.threads, Math.ceil(partners.length / CHUNK_ROWS)));
  const nextRow = new SharedArrayBuffer(4);
  new Int32Array(nextRow)[0] = used * CHUNK_ROWS;
  const workers = used > 1 ? startWorkers(index, partners, mode, nextRow, used - 1, startWorker) : [];
  const matcher = new HotelMatcher(index, { mode });
  const rows: (MappingResult | undefined)[] = Array.from({ length: partners.length }, () => undefined);
  const rowsPerThread = [0];
  matchTakenRows(
    matcher,
    partners,
    0,
    new Int32Array(nextRow),
    (position, result) => {
      rows[position] = result;
      rowsPerThread[0]! += 1;
    },
    onProgress,
  );
  for (const reply of await Promise.all(workers)) {
    if (!reply.ok) {
      process.stderr.write(`a matching thread failed (${reply.reason}): its rows are matched on this one\n`);
      rowsPerThread.push(0);
      continue;
    }
    reply.positions.forEach((position, k) => {
      rows[position] = reply.results[k]!;
    });
    rowsPerThread.push(reply.positions.length);
  }
  const outcomes = rows.map((row, position) => {
    if (row) return row;
    rowsPerThread[0]! += 1;
    return matcher.match(partners[position]!);
  });
  resolveClaimsAmong(index, outcomes, partners, matcher.thresholds.match);
  return { results: outcomes, rowsPerThread };
}

/** Matches the chunk set aside for `thread`, then chunks taken from `nextRow` until none are left; `record` gets each row's outcome. */
function matchTakenRows(
  matcher: HotelMatcher,
  partners: readonly PartnerHotel[],
  thread: number,
  nextRow: Int32Array,
  record: (position: number, result: MappingResult) => void,
  onProgress: (rowsHandedOut: number) => void = () => {},
): void {
  for (let start = thread * CHUNK_ROWS; start < partners.length; start = Atomics.add(nextRow, 0, CHUNK_ROWS)) {
    const end = Math.min(start + CHUNK_ROWS, partners.length);
    for (let position = start; position < end; position++) {
      record(position, matcher.match(partners[position]!));
    }
    onProgress(Math.min(Atomics.load(nextRow, 0), partners.length));
  }
}

/** Starts `count` workers; each promise settles with the worker's reply, or why it has none. */
function startWorkers(
  index: MatchingIndex,
  partners: readonly PartnerHotel[],
  mode: MappingMode,
  nextRow: SharedArrayBuffer,
  count: number,
  startWorker: (request: MatchRowsRequest) => Worker,
): Promise<MatchRowsReply>[] {
  const shared = shareMatchingIndex(index);
  return Array.from({ length: count }, (_, k) => {
    const answers = new WorkerAnswers(startWorker({ role: 'match-rows', thread: k + 1, index: shared, partners, mode, nextRow }));
    return answers
      .nextMessage<MatchRowsReply>()
      .catch((error: Error): MatchRowsReply => ({ ok: false, reason: error.message }))
      .finally(() => void answers.terminate());
  });
}

/** The worker's side: matches rows on the shared index until none are left, sends its outcomes. */
function matchRowsOnWorker({ thread, index, partners, mode, nextRow }: MatchRowsRequest): void {
  try {
    const matcher = new HotelMatcher(new MatchingIndex(index), { mode });
    const reply = { ok: true as const, positions: [] as number[], results: [] as MappingResult[] };
    matchTakenRows(matcher, partners, thread, new Int32Array(nextRow), (position, result) => {
      reply.positions.push(position);
      reply.results.push(result);
    });
    parentPort!.postMessage(reply satisfies MatchRowsReply);
  } catch (error) {
    parentPort!.postMessage({ ok: false, reason: error instanceof Error ? error.message : String(error) } satisfies MatchRowsReply);
  }
}

function isMatchRowsWorker(data: unknown): data is MatchRowsRequest {
  return !isMainThread && (data as MatchRowsRequest | undefined)?.role === 'match-rows';
}

if (isMatchRowsWorker(workerData)) matchRowsOnWorker(workerData);
