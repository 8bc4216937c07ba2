/**
 * Reads the reference inventory file of `npm run map` (infra/cli/map.ts) into the matching index.
 *
 * A large reference CSV is read by two threads: this one reads the first half of the file into
 * the index builder while a worker thread (this module again) reads the second half into its own,
 * numbering its lines from 1 (this thread, which knows where its half ends, renumbers the worker's
 * bad rows); the worker's hotels then come over as typed arrays and joined strings and are
 * appended, and the worker counts namesakes while this thread finishes the index. The index and
 * the messages are the ones a single thread gives. A file the fast CSV reader cannot split safely
 * (csv-parse needed somewhere, an id in both halves) or a worker that fails means reading the file
 * again on one thread.
 *
 * Importing this module does nothing else, except on the worker thread it starts itself: there
 * (told so by its workerData) it reads its part of the file and answers.
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { textAt } from '../../shared/mapping/columns';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import { InventoryIds, type InventoryRowError, readReferenceInventoryBatches } from '../../shared/mapping/inventory';
import type { MatchingIndex } from '../../shared/mapping/matching-index';
import { MatchingIndexBuilder, type MatchingIndexPart } from '../../shared/mapping/matching-index-builder';
import { type NamesakeInput, namesakeCounts } from '../../shared/mapping/namesakes';
import type { TabularFormat } from '../../shared/platform/files/formats';
import { type CsvHeader, type CsvLineEnd, csvHeaderOf } from '../../shared/platform/files/tabular';
import { readRows, RowErrors } from './inventory-rows';
import { startModuleWorker, WorkerAnswers } from './module-worker';

/** Read in large chunks: fewer round trips through the stream machinery. */
export const READ_CHUNK_BYTES = 1 << 20;
/** Reference CSV files at least this large are read by two threads. */
export const TWO_THREADS_MIN_BYTES = 32 * 2 ** 20;

/** The environment variable that sets another size (an operator tuning the split; the tests, to split a small file). */
export const TWO_THREADS_MIN_BYTES_VARIABLE = 'MAP_TWO_THREADS_MIN_BYTES';

/** The size from which a reference CSV is read by two threads, here. */
export function twoThreadsMinBytes(env: NodeJS.ProcessEnv = process.env): number {
  const setting = env[TWO_THREADS_MIN_BYTES_VARIABLE];
  if (setting === undefined || setting === '') return TWO_THREADS_MIN_BYTES;
  if (!/^[1-9]\d*$/.test(setting)) throw new Error(`${TWO_THREADS_MIN_BYTES_VARIABLE} must be a whole number of bytes, not "${setting}".`);
  return Number(setting);
}
/** Share of the file this thread reads (the worker starts later, this thread merges: about even on two cores). */
const MAIN_SHARE = 0.53;

/**
 * Where the stages of reading end, for the command's summary. `shift` moves seconds between
 * stages that ran interleaved (reading the reference and indexing its rows).
 */
export interface StageTimer {
  end(name: string, shift?: number): void;
}

/** A builder fed batches of hotels as they are read, timing itself: that time counts as building the index, not reading. */
class TimedIndexer {
  readonly builder: MatchingIndexBuilder;
  seconds = 0;
  constructor() {
    this.builder = new MatchingIndexBuilder();
  }
  readonly add = (hotels: readonly ReferenceHotel[]): void => {
    const started = performance.now();
    for (const hotel of hotels) this.builder.add(hotel);
    this.seconds += (performance.now() - started) / 1000;
  };
}

/** Where a reference CSV splits between two threads. */
interface ReferenceSplit {
  header: CsvHeader;
  /** Byte offset of the second part: the start of a line. */
  start: number;
}

/** What the worker reading the second part of a reference CSV is given. */
interface ReferencePartRequest extends ReferenceSplit {
  role: 'reference-part';
  file: string;
}

/** What it sends back: its part of the index and its bad rows, their lines counted from the part's first line (1). */
type ReferencePartResult =
  { ok: true; part: MatchingIndexPart; errors: { listed: InventoryRowError[]; count: number } } | { ok: false; reason: string };

/** Why a file is read whole on one thread after all. */
class OneThreadNeeded extends Error {}

/**
 * Reads the reference file into the matching index, on two threads when it is a large CSV file.
 * Its bad rows (and why it was read on one thread, when a split read was tried and given up) go
 * to stderr; the reading ends the stages "read reference" and "build index".
 */
export async function indexReferenceFile(file: string, format: TabularFormat, stages: StageTimer): Promise<MatchingIndex> {
  const split = format === 'csv' ? splitForTwoThreads(file) : undefined;
  const index = split ? await indexReferenceOnTwoThreads(file, split, stages) : undefined;
  return index ?? (await indexReferenceOnOneThread(file, format, stages));
}

/** Each batch of rows goes into the index as it is read (no hotel record is kept). */
async function indexReferenceOnOneThread(file: string, format: TabularFormat, stages: StageTimer): Promise<MatchingIndex> {
  const indexer = new TimedIndexer();
  const errors = new RowErrors();
  const hotels = await readRows(
    readReferenceInventoryBatches(createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }), format),
    errors,
    indexer.add,
  );
  errors.report(file, hotels);
  stages.end('read reference', -indexer.seconds);
  const index = indexer.builder.finish();
  stages.end('build index', indexer.seconds);
  return index;
}

/** Where a reference CSV splits between two threads; undefined for a small or unusual file. */
function splitForTwoThreads(file: string): ReferenceSplit | undefined {
  const size = statSync(file).size;
  if (size < twoThreadsMinBytes()) return undefined;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2 ** 20);
    const header = csvHeaderOf(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
    if (!header) return undefined;
    // The part starts after the first line break past the share; the first part's reader checks
    // that this is where a record ends (not inside a quoted field).
    const near = Buffer.alloc(2 ** 16);
    const from = Math.floor(size * MAIN_SHARE);
    const lineFeed = near.subarray(0, readSync(fd, near, 0, near.length, from)).indexOf(10);
    if (lineFeed < 0 || from + lineFeed + 1 >= size) return undefined;
    return { header, start: from + lineFeed + 1 };
  } finally {
    closeSync(fd);
  }
}

/**
 * This thread reads the first part of the file while a worker reads the second; undefined (after
 * saying why) when the file has to be read whole on one thread after all. The worker is ended
 * however this goes.
 */
async function indexReferenceOnTwoThreads(file: string, split: ReferenceSplit, stages: StageTimer): Promise<MatchingIndex | undefined> {
  const worker = new PartWorker({ role: 'reference-part', file, ...split });
  try {
    return await indexWithWorker(file, split, worker, stages);
  } catch (error) {
    if (!(error instanceof OneThreadNeeded)) throw error;
    process.stderr.write(`${file}: read on one thread (${error.message})\n`);
    return undefined;
  } finally {
    await worker.terminate();
  }
}

/** The two-thread read itself; throws OneThreadNeeded when the file is to be read on one thread instead. */
async function indexWithWorker(file: string, split: ReferenceSplit, worker: PartWorker, stages: StageTimer): Promise<MatchingIndex> {
  const indexer = new TimedIndexer();
  const ids = new InventoryIds();
  const errors = new RowErrors();
  const { hotels, partLine } = await readFirstPart(file, split, worker, { indexer, ids, errors });
  const result = await worker.result;
  if (!result.ok) throw new OneThreadNeeded(result.reason);
  // Ids are unique across the file: an id in both parts is reported against its first line, which only a single reader does.
  const repeated = firstIdSeen(result.part, ids);
  if (repeated !== undefined) throw new OneThreadNeeded(`id "${repeated}" is in both parts`);
  stages.end('read reference', -indexer.seconds);
  indexer.builder.appendPart(result.part);
  errors.appendPart(result.errors, partLine);
  errors.report(file, hotels + result.part.count);
  // The worker counts namesakes while this thread does the rest of the index.
  const index = await indexer.builder.finishWith((input) => worker.countNamesakes(input));
  stages.end('build index', indexer.seconds);
  return index;
}

/** The first id of the part that `ids` holds. */
function firstIdSeen(part: MatchingIndexPart, ids: InventoryIds): string | undefined {
  for (let hotel = 0; hotel < part.count; hotel++) {
    const id = textAt(part.ids, hotel);
    if (ids.lineOf(id) !== undefined) return id;
  }
  return undefined;
}

/**
 * Reads this thread's part, the file up to the split, into `into`; returns how many hotels it
 * held and the line the worker's part starts on. Throws OneThreadNeeded when the fast reader cannot
 * read it, it does not end on a record boundary, or the worker has failed (no use reading on).
 */
async function readFirstPart(
  file: string,
  split: ReferenceSplit,
  worker: PartWorker,
  into: { indexer: TimedIndexer; ids: InventoryIds; errors: RowErrors },
): Promise<{ hotels: number; partLine: number }> {
  let end: { line: number; lineEnd: CsvLineEnd } | undefined;
  const rows = readReferenceInventoryBatches(createReadStream(file, { end: split.start - 1, highWaterMark: READ_CHUNK_BYTES }), 'csv', {
    csvOptions: { strict: true, onEnd: (found) => (end = found) },
    ids: into.ids,
  });
  let hotels: number;
  try {
    hotels = await readRows(rows, into.errors, (batch) => {
      if (worker.failure !== undefined) throw new OneThreadNeeded(worker.failure);
      into.indexer.add(batch);
    });
  } catch (error) {
    throw error instanceof OneThreadNeeded ? error : new OneThreadNeeded(error instanceof Error ? error.message : String(error));
  }
  // Read strictly, the part ends on a record boundary unless a quoted field runs on past it (then
  // the reader threw); the worker's part then starts on the line after this part's last record.
  if (!end || end.lineEnd !== split.header.lineEnd) throw new OneThreadNeeded('the parts do not meet at a record boundary');
  return { hotels, partLine: end.line };
}

/** The worker reading the second part of a reference CSV: this module again, on another thread. */
class PartWorker {
  private readonly answers: WorkerAnswers;
  /** Its part, or why it has none. */
  readonly result: Promise<ReferencePartResult>;
  /** Why it has no part, once known. */
  failure: string | undefined;

  constructor(request: ReferencePartRequest) {
    this.answers = new WorkerAnswers(startModuleWorker(import.meta.url, request));
    this.result = this.answers.nextMessage<ReferencePartResult>().then(
      (result) => result,
      (error: Error): ReferencePartResult => ({ ok: false, reason: error.message }),
    );
    void this.result.then((result) => {
      if (!result.ok) this.failure = result.reason;
    });
  }

  /** The namesake counts of `input`, counted by the worker (once its part has come). */
  countNamesakes(input: NamesakeInput): Promise<Uint16Array> {
    this.answers.worker.postMessage(input);
    return this.answers.nextMessage<Uint16Array>();
  }

  async terminate(): Promise<void> {
    await this.answers.terminate();
  }
}

/**
 * The worker's side: reads the part from `start` to the end of the file into a builder and sends
 * it over, then counts namesakes when asked. Lines are numbered from the part's first line (1):
 * the other thread knows what line that is, and renumbers.
 */
async function readReferencePart({ file, start, header }: ReferencePartRequest): Promise<void> {
  try {
    const indexer = new TimedIndexer();
    const errors = new RowErrors();
    const rows = readReferenceInventoryBatches(createReadStream(file, { start, highWaterMark: READ_CHUNK_BYTES }), 'csv', {
      csvOptions: { strict: true, part: { ...header, firstLine: 1 } },
    });
    await readRows(rows, errors, indexer.add);
    const { part, transfer } = indexer.builder.toPart();
    parentPort!.once('message', (input: NamesakeInput) => {
      const counts = namesakeCounts(input);
      parentPort!.postMessage(counts, [counts.buffer as ArrayBuffer]);
    });
    parentPort!.postMessage(
      { ok: true, part, errors: { listed: errors.listed, count: errors.count } } satisfies ReferencePartResult,
      transfer,
    );
  } catch (error) {
    const reason = `in the second part, lines counted from its start: ${error instanceof Error ? error.message : String(error)}`;
    parentPort!.postMessage({ ok: false, reason } satisfies ReferencePartResult);
  }
}

/** The worker started by PartWorker: only there does importing this module read anything. */
function isPartWorker(data: unknown): data is ReferencePartRequest {
  return !isMainThread && (data as ReferencePartRequest | undefined)?.role === 'reference-part';
}

if (isPartWorker(workerData)) void readReferencePart(workerData);
