/**
 * Maps a partner inventory file against a reference inventory file.
 *
 *   npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] --out <results.jsonl|results.csv>
 *
 * Inventory files are CSV, JSONL, JSON or XLSX (by extension). Bad rows are reported on stderr
 * with their line numbers and skipped. Results: JSONL holds every field of each MappingResult;
 * CSV holds the export columns. A progress bar is drawn on stderr when it is a terminal.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ReferenceHotel } from '../../shared/reference';
import { type PartnerHotel, buildMatchingIndex, MAPPING_EXPORT_COLUMNS, MAPPING_MODES, mapHotels, readPartnerInventory, readReferenceInventory, toExportRow, type InventoryRow, type MappingMode, type MappingResult } from '../../shared/mapping';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { detectTabularFormat } from '../../shared/platform/files/formats';
import { TabularParseError } from '../../shared/platform/files/tabular';

const USAGE = 'usage: npm run map -- --reference <file> --partner <file> [--mode STANDARD|ID_TO_ID|HYBRID] --out <results.jsonl|results.csv>';
/** Bad rows listed one by one; beyond this only counted. */
const MAX_LISTED_ERRORS = 20;

class UsageError extends Error {}

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

async function loadInventory<T>(file: string, rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  let errors = 0;
  for await (const row of rows) {
    if ('hotel' in row) {
      hotels.push(row.hotel);
      continue;
    }
    errors += 1;
    if (errors <= MAX_LISTED_ERRORS) process.stderr.write(`${file}:${row.line}: ${row.error}\n`);
  }
  if (errors > MAX_LISTED_ERRORS) process.stderr.write(`${file}: ${errors - MAX_LISTED_ERRORS} more bad rows not listed\n`);
  process.stderr.write(`${file}: ${hotels.length} hotels read${errors > 0 ? `, ${errors} bad rows skipped` : ''}\n`);
  return hotels;
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

async function main(): Promise<void> {
  const options = parseOptions();
  const referenceFormat = inputFormat(options.reference);
  const partnerFormat = inputFormat(options.partner);

  const started = performance.now();
  const reference: ReferenceHotel[] = await loadInventory(options.reference, readReferenceInventory(createReadStream(options.reference), referenceFormat));
  const index = buildMatchingIndex(reference);
  reference.length = 0;
  const indexed = performance.now();
  process.stderr.write(`reference index: ${index.size} hotels in ${((indexed - started) / 1000).toFixed(1)} s\n`);

  const partners: PartnerHotel[] = await loadInventory(options.partner, readPartnerInventory(createReadStream(options.partner), partnerFormat));
  const bar = progressBar(partners.length);
  const mappingStarted = performance.now();
  const results = mapHotels(index, counted(partners, (done) => bar.update(done)), { mode: options.mode });
  const mappingSeconds = (performance.now() - mappingStarted) / 1000;
  bar.finish();

  await writeResults(options.out, options.outFormat, results);
  const count = (status: MappingResult['status']) => results.filter((result) => result.status === status).length;
  process.stderr.write(
    `${options.mode}: ${results.length} partner hotels -> matched ${count('MATCHED')}, review ${count('REVIEW')}, unmatched ${count('UNMATCHED')}; ` +
      `${Math.round(results.length / Math.max(mappingSeconds, 0.001))} hotels/s; results in ${options.out}\n`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n${USAGE}\n`);
  else if (error instanceof TabularParseError) process.stderr.write(`cannot read file: ${error.message}\n`);
  else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
