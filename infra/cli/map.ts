/**
 * Maps a partner inventory file against a reference inventory file.
 *
 *   npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] [--threads N] --out <results.jsonl|results.csv>
 *
 * Inventory files are CSV, JSONL, JSON or XLSX (by extension). Bad rows are reported on stderr
 * with their line numbers and skipped. Results: JSONL holds every field of each MappingResult;
 * CSV holds the export columns. A progress bar is drawn on stderr when it is a terminal. The
 * summary gives each stage's wall time.
 *
 * The reference file is read into the matching index by ./reference-reader (a large CSV on two
 * threads); the rows are matched by ./map-on-threads on --threads threads (by default one per
 * core, up to four, only once there are enough rows to repay copying the index to the others).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type PartnerHotel,
  MAPPING_MODES,
  type MatchingIndex,
  toExportRow,
  type MappingMode,
  type MappingResult,
} from '../../shared/mapping';
import { columnNames, columnValues, resolveFormat, type ResolvedExportFormat } from '../../shared/export-format';
import { readPartnerInventoryBatches } from '../../shared/mapping/inventory';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { detectTabularFormat, type TabularFormat } from '../../shared/platform/files/formats';
import { TabularParseError } from '../../shared/platform/files/tabular';
import { mapOnThreads } from './map-on-threads';
import { readRows, RowErrors } from './inventory-rows';
import { indexReferenceFile, READ_CHUNK_BYTES } from './reference-reader';

const USAGE =
  'usage: npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] [--threads N] --out <results.jsonl|results.csv>';
/** Threads used by default: one per core, up to this many. */
const MAX_DEFAULT_THREADS = 4;
/**
 * By default each thread gets at least this many partner rows, and at least ROWS_PER_THREAD_PER_HOTEL
 * of the reference's size: another thread first needs the index handed over in shared memory, and
 * it starts matching a few seconds after the first, while two matching threads on two cores slow
 * each other down. 100,000 rows against a million hotels, alternated on two cores
 * (`npm run map -- --threads 1|2`): the whole command 14.22, 14.28, 13.88 s on one thread and
 * 13.56, 13.41, 12.08 s on two (the match stage 5.3-6.0 s against 4.7-5.3 s), for 10 % more CPU
 * time. So a second thread from about 40,000 rows per thread per million hotels.
 */
const MIN_ROWS_PER_THREAD = 10_000;
const ROWS_PER_THREAD_PER_HOTEL = 0.04;

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
      threads: { type: 'string' },
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
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64))
    throw new UsageError('--threads must be a whole number from 1 to 64');
  return { reference: values.reference, partner: values.partner, mode, threads, out: values.out, outFormat };
}

function inputFormat(file: string) {
  const format = detectTabularFormat(file);
  if (!format) throw new UsageError(`${file}: unsupported file type (use .csv, .jsonl, .json or .xlsx)`);
  return format;
}

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

/** Lines are written in pieces of about this many characters: one write per line cost more than formatting it. */
const WRITE_PIECE_CHARS = 1 << 20;

/** The CSV a local run writes: the default export's columns, a column for every supplier the matched hotels have a code at. */
export function csvExportOf(results: readonly MappingResult[]): ResolvedExportFormat {
  const suppliers = [...new Set(results.flatMap((result) => Object.keys(result.supplierCodes ?? {})))].sort();
  return resolveFormat(undefined, suppliers);
}

export const csvRowContext = (csv: ResolvedExportFormat) => ({
  mappingJobId: null,
  partnerInventoryId: null,
  suppliers: csv.suppliers ?? [],
});

async function writeResults(file: string, format: string, results: readonly MappingResult[]): Promise<void> {
  const out = createWriteStream(file);
  const csv = csvExportOf(results);
  const line =
    format === '.csv'
      ? (result: MappingResult) => formatCsvRow(columnValues(csv, toExportRow(result, csvRowContext(csv))))
      : (result: MappingResult) => JSON.stringify(result);
  let piece = format === '.csv' ? `${formatCsvRow(columnNames(csv))}\n` : '';
  for (const result of results) {
    piece += `${line(result)}\n`;
    if (piece.length < WRITE_PIECE_CHARS) continue;
    const written = out.write(piece);
    piece = '';
    if (!written) await once(out, 'drain');
  }
  out.end(piece);
  await once(out, 'finish');
}

/** Reads the partner file whole (the progress bar needs the row count); reports its bad rows. */
async function readPartners(file: string, format: TabularFormat): Promise<PartnerHotel[]> {
  const partners: PartnerHotel[] = [];
  const errors = new RowErrors();
  const rows = readPartnerInventoryBatches(createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }), format);
  await readRows(rows, errors, (hotels) => {
    for (const hotel of hotels) partners.push(hotel);
  });
  errors.report(file, partners.length);
  return partners;
}

/** Maps the rows, drawing the progress bar as it goes. */
async function mapWithProgress(
  index: MatchingIndex,
  partners: readonly PartnerHotel[],
  mode: MappingMode,
  threads: number | undefined,
): Promise<MappingResult[]> {
  const bar = progressBar(partners.length);
  const leastRowsPerThread = Math.max(MIN_ROWS_PER_THREAD, index.size * ROWS_PER_THREAD_PER_HOTEL);
  const byDefault = Math.max(1, Math.min(availableParallelism(), MAX_DEFAULT_THREADS, Math.floor(partners.length / leastRowsPerThread)));
  // The bar shows rows handed out to the threads: close enough to rows done, with chunks of 256.
  const { results, rowsPerThread } = await mapOnThreads(index, partners, {
    mode,
    threads: threads ?? byDefault,
    onProgress: (handedOut) => bar.update(handedOut),
  });
  bar.finish();
  if (rowsPerThread.length > 1) process.stderr.write(`matched on ${rowsPerThread.length} threads (rows: ${rowsPerThread.join(', ')})\n`);
  return results;
}

function reportCounts(mode: MappingMode, results: readonly MappingResult[], mappingSeconds: number, out: string): void {
  const count = (status: MappingResult['status']) => results.filter((result) => result.status === status).length;
  process.stderr.write(
    `${mode}: ${results.length} partner hotels -> matched ${count('MATCHED')}, review ${count('REVIEW')}, unmatched ${count('UNMATCHED')}; ` +
      `${Math.round(results.length / Math.max(mappingSeconds, 0.001))} hotels/s; results in ${out}\n`,
  );
}

async function main(): Promise<void> {
  const options = parseOptions();
  const referenceFormat = inputFormat(options.reference);
  const partnerFormat = inputFormat(options.partner);

  const stages = new StageClock();
  // A mode that never looks a hotel up by its supplier codes has them checked, not kept.
  const index = await indexReferenceFile(options.reference, referenceFormat, stages);
  process.stderr.write(`reference index: ${index.size} hotels\n`);
  const partners = await readPartners(options.partner, partnerFormat);
  stages.end('read partner');
  const results = await mapWithProgress(index, partners, options.mode, options.threads);
  const mappingSeconds = stages.end('match');
  await writeResults(options.out, options.outFormat, results);
  stages.end('write');
  reportCounts(options.mode, results, mappingSeconds, options.out);
  process.stderr.write(`${stages.summary()}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
  else if (error instanceof TabularParseError) process.stderr.write(`cannot read file: ${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
