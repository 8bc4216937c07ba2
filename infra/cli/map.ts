/**
 * Maps a partner inventory file against a reference inventory file.
 *
 *   npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] --out <results.jsonl|results.csv>
 *
 * Inventory files are CSV, JSONL, JSON or XLSX (by extension). Bad rows are reported on stderr
 * with their line numbers and skipped. Results: JSONL holds every field of each MappingResult;
 * CSV holds the export columns. A progress bar is drawn on stderr when it is a terminal. The
 * summary gives each stage's wall time.
 *
 * A large reference CSV is read by two threads: this one reads the first half of the file into
 * the index builder while a worker thread (this module again) reads the second half into its own,
 * numbering its lines from 1 (this thread, which knows where its half ends, renumbers the worker's
 * bad rows); the worker's hotels then come over as typed arrays and joined strings and are
 * appended, and the worker counts namesakes while this thread finishes the index. The index and
 * the messages are the ones a single thread gives. A file the fast CSV reader cannot split safely
 * (csv-parse needed somewhere, an id in both halves) or a worker that fails means reading the file
 * again on one thread.
 */
import { closeSync, createReadStream, createWriteStream, openSync, readSync, statSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type PartnerHotel, MAPPING_EXPORT_COLUMNS, MAPPING_MODES, mapHotels, toExportRow, type InventoryRow, type MappingMode, type MappingResult } from '../../shared/mapping';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import { InventoryIds, readPartnerInventoryBatches, readReferenceInventoryBatches, rowErrorInFile } from '../../shared/mapping/inventory';
import { type MatchingIndex, MatchingIndexBuilder, type MatchingIndexPart, type NamesakeInput, namesakeCounts, unpackMatchingIndexPartIds } from '../../shared/mapping/reference-index';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { detectTabularFormat, type TabularFormat } from '../../shared/platform/files/formats';
import { type CsvHeader, type CsvLineEnd, csvHeaderOf, TabularParseError } from '../../shared/platform/files/tabular';

const USAGE = 'usage: npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] --out <results.jsonl|results.csv>';
/** Bad rows listed one by one; beyond this only counted. */
const MAX_LISTED_ERRORS = 20;

class UsageError extends Error {}

/** Wall time of each stage of the run, for the summary line ("stages: read reference 1.2 s, ..."). */
class StageClock {
  private readonly started = performance.now();
  private last = this.started;
  private readonly stages: [string, number][] = [];
  /**
   * Ends the stage running since the previous end; returns its seconds. `shift` moves seconds
   * between stages that ran interleaved (reading the reference and indexing its rows).
   */
  end(name: string, shift = 0): number {
    const now = performance.now();
    const seconds = (now - this.last) / 1000 + shift;
    this.last = now;
    this.stages.push([name, seconds]);
    return seconds;
  }
  summary(): string {
    const total = (this.last - this.started) / 1000;
    return `stages: ${this.stages.map(([name, seconds]) => `${name} ${seconds.toFixed(2)} s`).join(', ')}; total ${total.toFixed(2)} s`;
  }
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      reference: { type: 'string' },
      partner: { type: 'string' },
      mode: { type: 'string', default: 'STANDARD' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.reference || !values.partner || !values.out) throw new UsageError('--reference, --partner and --out are required');
  const mode = values.mode.toUpperCase() as MappingMode;
  if (!MAPPING_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${MAPPING_MODES.join(', ')}`);
  const outFormat = path.extname(values.out).toLowerCase();
  if (outFormat !== '.jsonl' && outFormat !== '.csv') throw new UsageError('--out must end in .jsonl or .csv');
  return { reference: values.reference, partner: values.partner, mode, out: values.out, outFormat };
}

function inputFormat(file: string) {
  const format = detectTabularFormat(file);
  if (!format) throw new UsageError(`${file}: unsupported file type (use .csv, .jsonl, .json or .xlsx)`);
  return format;
}

/** A bad row: its line and what is wrong with it. */
type RowError = { line: number; error: string };

/** Bad rows of a file: the first few kept, the rest counted. */
class RowErrors {
  readonly listed: RowError[] = [];
  count = 0;
  note(line: number, error: string): void {
    this.count += 1;
    if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push({ line, error });
  }
  /** Adds the errors of a later part of the file, read with its lines numbered from 1; the part starts on line `firstLine`. */
  appendPart(part: { listed: readonly RowError[]; count: number }, firstLine: number): void {
    for (const row of part.listed) if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push(rowErrorInFile(row, firstLine));
    this.count += part.count;
  }
  report(file: string, hotels: number): void {
    for (const { line, error } of this.listed) process.stderr.write(`${file}:${line}: ${error}\n`);
    if (this.count > MAX_LISTED_ERRORS) process.stderr.write(`${file}: ${this.count - MAX_LISTED_ERRORS} more bad rows not listed\n`);
    process.stderr.write(`${file}: ${hotels} hotels read${this.count > 0 ? `, ${this.count} bad rows skipped` : ''}\n`);
  }
}

/** Reads inventory rows, handing each batch of good rows' hotels to `take`; returns how many. */
async function readRows<T>(batches: AsyncIterable<InventoryRow<T>[]>, errors: RowErrors, take: (hotels: T[]) => void): Promise<number> {
  let count = 0;
  const hotels: T[] = [];
  for await (const rows of batches) {
    for (const row of rows) {
      if ('hotel' in row) hotels.push(row.hotel);
      else errors.note(row.line, row.error);
    }
    count += hotels.length;
    take(hotels);
    hotels.length = 0;
  }
  return count;
}

/** A builder fed batches of hotels as they are read, timing itself: that time counts as building the index, not reading. */
class TimedIndexer {
  readonly builder = new MatchingIndexBuilder();
  seconds = 0;
  readonly add = (hotels: readonly ReferenceHotel[]): void => {
    const started = performance.now();
    for (const hotel of hotels) this.builder.add(hotel);
    this.seconds += (performance.now() - started) / 1000;
  };
}

/** Read in large chunks: fewer round trips through the stream machinery. */
const READ_CHUNK_BYTES = 1 << 20;

/** Redraws a one-line bar on stderr at most every 100 ms; silent when stderr is not a terminal. */
function progressBar(total: number) {
  const enabled = process.stderr.isTTY === true && total > 0;
  let lastDraw = 0;
  const started = performance.now();
  return {
    update(done: number) {
      if (!enabled) return;
      const now = performance.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round((done / total) * width);
      const rate = done / Math.max(0.001, (now - started) / 1000);
      process.stderr.write(`\rmapping [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${Math.round(rate)}/s `);
    },
    finish() {
      if (enabled) process.stderr.write('\n');
    },
  };
}

function* counted<T>(items: readonly T[], onProgress: (done: number) => void): Generator<T> {
  for (let i = 0; i < items.length; i++) {
    yield items[i]!;
    if (i % 256 === 255) onProgress(i + 1);
  }
  onProgress(items.length);
}

async function writeResults(file: string, format: string, results: readonly MappingResult[]): Promise<void> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  if (format === '.csv') {
    await write(formatCsvRow(MAPPING_EXPORT_COLUMNS));
    for (const result of results) {
      const row = toExportRow(result);
      await write(formatCsvRow(MAPPING_EXPORT_COLUMNS.map((column) => row[column])));
    }
  } else {
    for (const result of results) await write(JSON.stringify(result));
  }
  out.end();
  await once(out, 'finish');
}

/** Reference CSV files at least this large are read by two threads. */
const TWO_THREADS_MIN_BYTES = 32 * 2 ** 20;
/** Share of the file this thread reads (the worker starts later, this thread merges: about even on two cores). */
const MAIN_SHARE = 0.53;

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
  | { ok: true; part: MatchingIndexPart; errors: { listed: RowError[]; count: number } }
  | { ok: false; reason: string };

/** Why a file is read whole on one thread after all. */
class OneThreadNeeded extends Error {}

/** Reads the reference file into the matching index, on two threads when it is a large CSV file. */
async function indexReference(file: string, format: TabularFormat, stages: StageClock): Promise<MatchingIndex> {
  const split = format === 'csv' ? splitForTwoThreads(file) : undefined;
  const index = split ? await indexReferenceOnTwoThreads(file, split, stages) : undefined;
  return index ?? (await indexReferenceOnOneThread(file, format, stages));
}

/** Each batch of rows goes into the index as it is read (no hotel record is kept). */
async function indexReferenceOnOneThread(file: string, format: TabularFormat, stages: StageClock): Promise<MatchingIndex> {
  const indexer = new TimedIndexer();
  const errors = new RowErrors();
  const hotels = await readRows(readReferenceInventoryBatches(createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }), format), errors, indexer.add);
  errors.report(file, hotels);
  stages.end('read reference', -indexer.seconds);
  const index = indexer.builder.finish();
  stages.end('build index', indexer.seconds);
  return index;
}

/** Where a reference CSV splits between two threads; undefined for a small or unusual file. */
function splitForTwoThreads(file: string): ReferenceSplit | undefined {
  const size = statSync(file).size;
  if (size < TWO_THREADS_MIN_BYTES) return undefined;
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
async function indexReferenceOnTwoThreads(file: string, split: ReferenceSplit, stages: StageClock): Promise<MatchingIndex | undefined> {
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
async function indexWithWorker(file: string, split: ReferenceSplit, worker: PartWorker, stages: StageClock): Promise<MatchingIndex> {
  const indexer = new TimedIndexer();
  const ids = new InventoryIds();
  const errors = new RowErrors();
  const { hotels, partLine } = await readFirstPart(file, split, worker, { indexer, ids, errors });
  const result = await worker.result;
  if (!result.ok) throw new OneThreadNeeded(result.reason);
  // Ids are unique across the file: an id in both parts is reported against its first line, which only a single reader does.
  const repeated = unpackMatchingIndexPartIds(result.part).find((id) => ids.lineOf(id) !== undefined);
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
  private readonly worker: Worker;
  /** Why the worker can no longer answer, once it cannot. */
  private unusable: string | undefined;
  /** The requests waiting for an answer, to fail when it cannot come. */
  private readonly waiting = new Set<(reason: string) => void>();
  /** Its part, or why it has none. */
  readonly result: Promise<ReferencePartResult>;
  /** Why it has no part, once known. */
  failure: string | undefined;

  constructor(request: ReferencePartRequest) {
    this.worker = startWorker(request);
    this.worker.on('error', (error) => this.fail(error.message));
    this.worker.on('messageerror', (error) => this.fail(`a message from the worker could not be read (${error.message})`));
    this.worker.on('exit', (code) => this.fail(`the worker stopped (exit code ${code})`));
    this.result = this.nextMessage<ReferencePartResult>().then(
      (result) => result,
      (error: Error): ReferencePartResult => ({ ok: false, reason: error.message }),
    );
    void this.result.then((result) => {
      if (!result.ok) this.failure = result.reason;
    });
  }

  /** The namesake counts of `input`, counted by the worker (once its part has come). */
  countNamesakes(input: NamesakeInput): Promise<Uint16Array> {
    this.worker.postMessage(input);
    return this.nextMessage<Uint16Array>();
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** The worker's next message; rejected when the worker can no longer send one. */
  private nextMessage<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.unusable !== undefined) {
        reject(new Error(this.unusable));
        return;
      }
      const settle = () => {
        this.worker.off('message', onMessage);
        this.waiting.delete(onFailure);
      };
      const onMessage = (message: T) => {
        settle();
        resolve(message);
      };
      const onFailure = (reason: string) => {
        settle();
        reject(new Error(reason));
      };
      this.worker.on('message', onMessage);
      this.waiting.add(onFailure);
    });
  }

  private fail(reason: string): void {
    this.unusable ??= reason;
    for (const onFailure of [...this.waiting]) onFailure(this.unusable);
  }
}

/** Starts this module on a worker thread, through tsx when it is TypeScript. */
function startWorker(request: ReferencePartRequest): Worker {
  const url = import.meta.url;
  const source = /\.[cm]?ts$/.test(new URL(url).pathname)
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`
    : `import(${JSON.stringify(url)});`;
  return new Worker(source, { eval: true, workerData: request });
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
    parentPort!.postMessage({ ok: true, part, errors: { listed: errors.listed, count: errors.count } } satisfies ReferencePartResult, transfer);
  } catch (error) {
    const reason = `in the second part, lines counted from its start: ${error instanceof Error ? error.message : String(error)}`;
    parentPort!.postMessage({ ok: false, reason } satisfies ReferencePartResult);
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  const referenceFormat = inputFormat(options.reference);
  const partnerFormat = inputFormat(options.partner);

  const stages = new StageClock();
  const index = await indexReference(options.reference, referenceFormat, stages);
  process.stderr.write(`reference index: ${index.size} hotels\n`);

  const partners: PartnerHotel[] = [];
  const partnerErrors = new RowErrors();
  const partnerRows = readPartnerInventoryBatches(createReadStream(options.partner, { highWaterMark: READ_CHUNK_BYTES }), partnerFormat);
  await readRows(partnerRows, partnerErrors, (hotels) => {
    for (const hotel of hotels) partners.push(hotel);
  });
  partnerErrors.report(options.partner, partners.length);
  stages.end('read partner');
  const bar = progressBar(partners.length);
  const results = mapHotels(index, counted(partners, (done) => bar.update(done)), { mode: options.mode });
  const mappingSeconds = stages.end('match');
  bar.finish();

  await writeResults(options.out, options.outFormat, results);
  stages.end('write');
  const count = (status: MappingResult['status']) => results.filter((result) => result.status === status).length;
  process.stderr.write(
    `${options.mode}: ${results.length} partner hotels -> matched ${count('MATCHED')}, review ${count('REVIEW')}, unmatched ${count('UNMATCHED')}; ` +
      `${Math.round(results.length / Math.max(mappingSeconds, 0.001))} hotels/s; results in ${options.out}\n`,
  );
  process.stderr.write(`${stages.summary()}\n`);
}

if (isMainThread) {
  main().catch((error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
    else if (error instanceof TabularParseError) process.stderr.write(`cannot read file: ${error.message}\n`);
    else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
} else if ((workerData as ReferencePartRequest | undefined)?.role === 'reference-part') {
  void readReferencePart(workerData as ReferencePartRequest);
}
