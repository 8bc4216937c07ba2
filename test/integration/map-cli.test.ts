/**
 * `npm run map` as a user runs it: the command in a child process (through tsx's CLI, as the npm
 * script does) on files in a temporary directory, its results and messages checked against the
 * mapping engine run in this process on the same files. A reference CSV over the two-thread
 * threshold checks the split read: same bad-row lines, same results, and the fall-back to one
 * thread when an id is in both halves.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { TWO_THREADS_MIN_BYTES_VARIABLE } from '../../infra/cli/reference-reader';
import { csvExportOf, csvRowContext } from '../../infra/cli/map';

/** The size from which the command reads a reference on two threads, lowered from 32 MiB: the split is what is tested, not the size. */
const TWO_THREADS_MIN_BYTES = 2 * 2 ** 20;
import {
  buildMatchingIndex,
  type InventoryRow,
  MAPPING_EXPORT_COLUMNS,
  mapHotels,
  type MappingMode,
  type MappingResult,
  type PartnerHotel,
  readPartnerInventory,
  readReferenceInventory,
  type ReferenceHotel,
  toExportRow,
} from '../../shared/mapping';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { columnNames, columnValues } from '../../shared/export-format';
import { csvHeaderLine, csvLine } from '../../shared/reference/inventory-file';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX_CLI = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MAP_CLI = join(ROOT, 'infra/cli/map.ts');
const STAGES_SUMMARY =
  /\nstages: read reference [\d.]+ s, build index [\d.]+ s, read partner [\d.]+ s, match [\d.]+ s, write [\d.]+ s; total [\d.]+ s\n$/;
const ONE_THREAD = 'read on one thread';

const folder = mkdtempSync(join(tmpdir(), 'map-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the command in `folder` (file names relative to it, as the messages then give them). */
async function runMap(...args: string[]): Promise<{ code: number; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    [TWO_THREADS_MIN_BYTES_VARIABLE]: String(TWO_THREADS_MIN_BYTES),
  };
  delete env.NODE_OPTIONS; // jest's --experimental-vm-modules is not what `npm run map` runs with
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [TSX_CLI, MAP_CLI, ...args], {
      cwd: folder,
      env,
      maxBuffer: 16 * 2 ** 20,
    });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

type RowError = { line: number; error: string };

/** A file read in this process: its good rows' hotels and its bad rows, as a single reader gives them. */
async function readInventory<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<{ hotels: T[]; errors: RowError[] }> {
  const hotels: T[] = [];
  const errors: RowError[] = [];
  for await (const row of rows) {
    if ('hotel' in row) hotels.push(row.hotel);
    else errors.push({ line: row.line, error: row.error });
  }
  return { hotels, errors };
}

const readReference = (file: string) => readInventory(readReferenceInventory(readFileSync(join(folder, file)), 'csv'));
const readPartners = (file: string) => readInventory(readPartnerInventory(readFileSync(join(folder, file)), 'csv'));

/** The block of stderr the command writes about a file's rows (up to 20 bad rows are listed). */
function rowReport(file: string, hotels: number, errors: readonly RowError[]): string {
  assert.ok(errors.length <= 20, 'the test lists every bad row');
  const listed = errors.map(({ line, error }) => `${file}:${line}: ${error}\n`).join('');
  return `${listed}${file}: ${hotels} hotels read${errors.length > 0 ? `, ${errors.length} bad rows skipped` : ''}\n`;
}

/** What the command should write: the engine's results for the same rows, mapped in this process. */
function expectedResults(reference: readonly ReferenceHotel[], partners: readonly PartnerHotel[], mode: MappingMode): MappingResult[] {
  return mapHotels(buildMatchingIndex(reference), partners, { mode });
}

const jsonLines = (results: readonly MappingResult[]) => results.map((result) => `${JSON.stringify(result)}\n`).join('');
const readOutput = (file: string) => readFileSync(join(folder, file), 'utf8');

/** A reference CSV being written, keeping count of its lines (the header is line 1). */
class ReferenceCsv {
  private readonly chunks: string[] = [csvHeaderLine()];
  bytes = this.chunks[0]!.length;
  lines = 1;
  /** Adds a row; returns its line. */
  add(hotel: ReferenceHotel): number {
    return this.addText(csvLine(hotel));
  }
  addText(line: string): number {
    this.chunks.push(line);
    this.bytes += Buffer.byteLength(line);
    return ++this.lines;
  }
  write(file: string): void {
    writeFileSync(join(folder, file), this.chunks.join(''));
  }
}

const PARTNER_COLUMNS = [
  'id',
  'name',
  'address',
  'city',
  'postalCode',
  'country',
  'lat',
  'lon',
  'supplierCode',
  'supplierHotelId',
] as const;
type PartnerRow = Partial<Record<(typeof PARTNER_COLUMNS)[number], string | number>>;

/**
 * Partner rows made from reference hotels the way partners list them: the same, renamed and
 * moved a little, by supplier id, without coordinates; and hotels that are not in the reference.
 */
function partnerRowsFrom(hotels: readonly ReferenceHotel[], strangers: readonly ReferenceHotel[]): PartnerRow[] {
  const rows = hotels.map((hotel, i): PartnerRow => {
    const { name, address, city, postalCode, country, lat, lon } = hotel;
    const id = `P-${i}`;
    const [supplier] = Object.entries(hotel.supplierCodes);
    switch (i % 4) {
      case 0:
        return { id, name, address, city, postalCode, country, lat, lon };
      case 1:
        return { id, name: name.toUpperCase(), city, country, lat: lat === undefined ? undefined : lat + 0.0003, lon };
      case 2:
        return { id, name, city, country, supplierCode: supplier?.[0], supplierHotelId: supplier?.[1] };
      default:
        return { id, name: `${name} Hotel`, address, city, postalCode, country };
    }
  });
  const others = strangers.map(({ name, city, country, lat, lon }, i): PartnerRow => ({ id: `S-${i}`, name, city, country, lat, lon }));
  return [...rows, ...others];
}

function partnerCsv(rows: readonly PartnerRow[]): string {
  return [PARTNER_COLUMNS.join(','), ...rows.map((row) => formatCsvRow(PARTNER_COLUMNS.map((column) => row[column])))].join('\n') + '\n';
}

/** Partner rows the command skips, with the errors they get (header line 1, so the first is line rows.length + 2). */
const BAD_PARTNER_ROWS: PartnerRow[] = [
  { id: 'BAD-1', city: 'Paris', country: 'France' },
  { id: 'BAD-2', name: 'Hotel North', lat: 'north', lon: 2.35 },
  { id: 'BAD-3', name: 'Hotel Half', lat: 48.85 },
];
const BAD_PARTNER_ERRORS = ['name is missing', 'lat "north" is not a number', 'lat and lon must be given together'];

describe('npm run map on small files', () => {
  const reference = new ReferenceCsv();
  const expectedReferenceErrors: RowError[] = [];
  let partnerRowCount = 0;

  beforeAll(() => {
    const [extra1, extra2, extra3] = [...generateReferenceHotels({ count: 3, seed: 902 })];
    const hotels = [...generateReferenceHotels({ count: 300, seed: 901 })];
    hotels.forEach((hotel, i) => {
      const line = reference.add(hotel);
      if (i === 2) expectedReferenceErrors.push({ line: reference.add({ ...extra1!, name: '' }), error: 'name is missing' });
      if (i === 50)
        expectedReferenceErrors.push({
          line: reference.add({ ...extra2!, id: hotel.id }),
          error: `id "${hotel.id}" already used on line ${line}`,
        });
      if (i === 120)
        expectedReferenceErrors.push({ line: reference.add({ ...extra3!, lat: 123.4 }), error: 'lat 123.4 is outside -90..90' });
    });
    reference.write('reference.csv');
    const good = partnerRowsFrom(
      hotels.filter((_, i) => i % 7 === 0),
      [...generateReferenceHotels({ count: 8, seed: 903 })],
    );
    partnerRowCount = good.length;
    writeFileSync(
      join(folder, 'partner.csv'),
      partnerCsv([...good.slice(0, 10), BAD_PARTNER_ROWS[0]!, ...good.slice(10), ...BAD_PARTNER_ROWS.slice(1)]),
    );
  });

  it('maps the good rows, lists the bad ones with file and line, and sums up the stages (JSONL)', async () => {
    const run = await runMap('--reference', 'reference.csv', '--partner', 'partner.csv', '--out', 'results.jsonl');
    assert.equal(run.code, 0, run.stderr);

    const referenceRead = await readReference('reference.csv');
    assert.deepEqual(referenceRead.errors, expectedReferenceErrors);
    assert.ok(run.stderr.includes(rowReport('reference.csv', 300, expectedReferenceErrors)), run.stderr);
    const partnersRead = await readPartners('partner.csv');
    const partnerLines = [12, partnerRowCount + 3, partnerRowCount + 4];
    assert.deepEqual(
      partnersRead.errors,
      partnerLines.map((line, i) => ({ line, error: BAD_PARTNER_ERRORS[i]! })),
    );
    assert.ok(run.stderr.includes(rowReport('partner.csv', partnerRowCount, partnersRead.errors)), run.stderr);
    assert.match(run.stderr, STAGES_SUMMARY);

    const expected = expectedResults(referenceRead.hotels, partnersRead.hotels, 'STANDARD');
    assert.equal(expected.length, partnerRowCount);
    const statuses = new Set(expected.map((result) => result.status));
    assert.ok(statuses.has('MATCHED') && statuses.has('UNMATCHED'), 'the rows cover more than one outcome');
    assert.equal(readOutput('results.jsonl'), jsonLines(expected));
  });

  it('matches on several threads as on one: every thread takes rows, the results are the same', async () => {
    // Every hotel four times over (shared claims for the cross-row rule), enough rows for a chunk per thread.
    const { hotels } = await readReference('reference.csv');
    const rows = partnerRowsFrom([...hotels, ...hotels, ...hotels, ...hotels], []);
    writeFileSync(join(folder, 'many-partners.csv'), partnerCsv(rows));
    const run = await runMap(
      '--reference',
      'reference.csv',
      '--partner',
      'many-partners.csv',
      '--mode',
      'HYBRID',
      '--threads',
      '3',
      '--out',
      'many.jsonl',
    );
    assert.equal(run.code, 0, run.stderr);

    const perThread = /\nmatched on 3 threads \(rows: (\d+), (\d+), (\d+)\)\n/.exec(run.stderr)?.slice(1).map(Number);
    assert.ok(perThread && perThread.every((count) => count > 0), run.stderr);
    assert.equal(
      perThread.reduce((total, count) => total + count, 0),
      rows.length,
    );
    const expected = expectedResults(hotels, (await readPartners('many-partners.csv')).hotels, 'HYBRID');
    assert.ok(
      expected.some((result) => result.reason?.includes('listed twice')),
      'the cross-row rule had work to do',
    );
    assert.equal(readOutput('many.jsonl'), jsonLines(expected));
  });

  it('starts no thread that would have no chunk of rows to match', async () => {
    const run = await runMap('--reference', 'reference.csv', '--partner', 'partner.csv', '--threads', '8', '--out', 'few.jsonl');
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stderr.includes('matched on'), run.stderr);
    const expected = expectedResults((await readReference('reference.csv')).hotels, (await readPartners('partner.csv')).hotels, 'STANDARD');
    assert.equal(readOutput('few.jsonl'), jsonLines(expected));
  });

  it('refuses a thread count that is not a whole number from 1 to 64', async () => {
    for (const threads of ['0', '2.5']) {
      const run = await runMap('--reference', 'reference.csv', '--partner', 'partner.csv', '--threads', threads, '--out', 'unused.jsonl');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^--threads must be a whole number from 1 to 64\nusage: npm run map -- /);
    }
  });

  it('writes the export columns to a .csv file, in the mode asked for', async () => {
    const run = await runMap('--reference', 'reference.csv', '--partner', 'partner.csv', '--mode', 'hybrid', '--out', 'results.csv');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\nHYBRID: \d+ partner hotels -> /);
    const expected = expectedResults((await readReference('reference.csv')).hotels, (await readPartners('partner.csv')).hotels, 'HYBRID');
    const lines = readOutput('results.csv').split('\n');
    const csv = csvExportOf(expected);
    assert.ok(csv.suppliers!.length > 0, 'the matched hotels have supplier codes: a column each');
    assert.equal(lines[0], formatCsvRow(columnNames(csv)));
    assert.ok(lines[0].startsWith(formatCsvRow(MAPPING_EXPORT_COLUMNS.filter((column) => column !== 'supplierCodes'))));
    const rows = expected.map((result) => formatCsvRow(columnValues(csv, toExportRow(result, csvRowContext(csv)))));
    assert.deepEqual(lines.slice(1), [...rows, '']);
  });
});

describe('npm run map on a reference CSV large enough for two threads', () => {
  const big = new ReferenceCsv();
  const expectedErrors: RowError[] = [];
  /** A row of the first half, repeated at the end of the file to make the id-in-both-halves file. */
  let firstHalfRow = { line: 0, hotel: undefined as ReferenceHotel | undefined };
  let expected = '';
  let expectedHybrid = '';

  beforeAll(async () => {
    writeBigReference();
    copyFileSync(join(folder, 'big.csv'), join(folder, 'big-repeated-id.csv'));
    appendFileSync(join(folder, 'big-repeated-id.csv'), csvLine({ ...firstHalfRow.hotel!, name: 'Repeated Id Hotel' }));

    const referenceRead = await readReference('big.csv');
    assert.deepEqual(referenceRead.errors, expectedErrors, 'a single reader finds the bad rows where they were written');
    const strangers = [...generateReferenceHotels({ count: 20, seed: 913 })];
    writeFileSync(
      join(folder, 'big-partner.csv'),
      partnerCsv(
        partnerRowsFrom(
          referenceRead.hotels.filter((_, i) => i % 40 === 0),
          strangers,
        ),
      ),
    );
    const partners = (await readPartners('big-partner.csv')).hotels;
    expected = jsonLines(expectedResults(referenceRead.hotels, partners, 'STANDARD'));
    expectedHybrid = jsonLines(expectedResults(referenceRead.hotels, partners, 'HYBRID'));
    assert.notEqual(expectedHybrid, expected, 'some partner rows match by supplier code');
  }, 120_000);

  /**
   * Generated hotels past the threshold, with bad rows placed well inside each half (the split is
   * near the middle): a bad name in the first, a bad latitude and a repeated id in the second.
   */
  function writeBigReference(): void {
    const [noName, farNorth, repeat] = [...generateReferenceHotels({ count: 3, seed: 912 })];
    const hotels = generateReferenceHotels({ count: 1_000_000, seed: 911 });
    const target = TWO_THREADS_MIN_BYTES * 1.04;
    let secondHalfRow = { line: 0, id: '' };
    for (const hotel of hotels) {
      const line = big.add(hotel);
      const share = big.bytes / target;
      if (firstHalfRow.line === 0 && share > 0.1) {
        firstHalfRow = { line, hotel };
        expectedErrors.push({ line: big.add({ ...noName!, name: '' }), error: 'name is missing' });
      } else if (secondHalfRow.line === 0 && share > 0.75) {
        secondHalfRow = { line, id: hotel.id };
        expectedErrors.push({ line: big.add({ ...farNorth!, lat: -91 }), error: 'lat -91 is outside -90..90' });
      } else if (expectedErrors.length === 2 && share > 0.9) {
        const error = `id "${secondHalfRow.id}" already used on line ${secondHalfRow.line}`;
        expectedErrors.push({ line: big.add({ ...repeat!, id: secondHalfRow.id }), error });
      }
      if (share >= 1) break;
    }
    big.write('big.csv');
    assert.ok(statSync(join(folder, 'big.csv')).size >= TWO_THREADS_MIN_BYTES);
  }

  it('reads it on two threads and matches on two: the same bad rows on the same lines, the same results', async () => {
    const run = await runMap('--reference', 'big.csv', '--partner', 'big-partner.csv', '--threads', '2', '--out', 'big.jsonl');
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stderr.includes(ONE_THREAD), run.stderr);
    assert.match(run.stderr, /\nmatched on 2 threads \(rows: [1-9]\d*, [1-9]\d*\)\n/);
    assert.ok(run.stderr.includes(rowReport('big.csv', big.lines - 1 - expectedErrors.length, expectedErrors)), run.stderr);
    assert.match(run.stderr, STAGES_SUMMARY);
    assert.equal(readOutput('big.jsonl'), expected);
  });

  it('keeps the supplier codes of both halves in HYBRID mode (STANDARD leaves them out): the results of one reader', async () => {
    const run = await runMap(
      '--reference',
      'big.csv',
      '--partner',
      'big-partner.csv',
      '--mode',
      'HYBRID',
      '--threads',
      '1',
      '--out',
      'big-hybrid.jsonl',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stderr.includes(ONE_THREAD), run.stderr);
    assert.equal(readOutput('big-hybrid.jsonl'), expectedHybrid);
  });

  it('reads it on one thread when an id is in both halves, with the same results', async () => {
    const run = await runMap('--reference', 'big-repeated-id.csv', '--partner', 'big-partner.csv', '--out', 'big-repeated-id.jsonl');
    assert.equal(run.code, 0, run.stderr);
    const { hotel, line } = firstHalfRow;
    assert.ok(run.stderr.includes(`big-repeated-id.csv: ${ONE_THREAD} (id "${hotel!.id}" is in both parts)\n`), run.stderr);
    const errors = [...expectedErrors, { line: big.lines + 1, error: `id "${hotel!.id}" already used on line ${line}` }];
    assert.ok(run.stderr.includes(rowReport('big-repeated-id.csv', big.lines - 1 - expectedErrors.length, errors)), run.stderr);
    assert.match(run.stderr, STAGES_SUMMARY);
    assert.equal(readOutput('big-repeated-id.jsonl'), expected);
  });
});
