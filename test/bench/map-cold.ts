/**
 * Cold-file speed of `npm run map`: a 1,000,000-row reference CSV and a 100,000-row partner CSV
 * (the synthetic set of bench:mapping, written once to .local/bench-map/ with its truth), mapped
 * (a) by the real CLI in a child process, exactly as `npm run map` runs it, stage times read from
 * its summary, and (b) by a plain baseline written here and run in this process: a 300 m lat/lon
 * grid, trigram name similarity, the best candidate in the 3 x 3 cells around the partner's pin.
 * The baseline runs twice, reading both files two ways: "baseline (csv-parse)" with csv-parse
 * itself, the header row as columns (what a plain script would write), and "baseline (fast
 * reader)" with the project's readTabular (the fast CSV reader the CLI uses too). Prints each
 * stage's wall time, the totals, the CLI's ratio to each baseline, and precision / recall / F1 of
 * MATCHED rows against the truth for each.
 *
 *   npm run bench:map [-- --reference 1000000 --partners 100000 --seed 20261122 --runs 1 --only cli|baseline --data dir]
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import type { MappingResult, PartnerHotel } from '../../shared/mapping';
import { csvHeaderLine, csvLine } from '../../shared/reference/inventory-file';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { readTabular } from '../../shared/platform/files/tabular';
import { foldText } from '../../shared/platform/text';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';
import { scoreMatches, type MatchMetrics } from './mapping-metrics';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    reference: { type: 'string', default: '1000000' },
    partners: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '20261122' },
    runs: { type: 'string', default: '1' },
    only: { type: 'string' },
    data: { type: 'string' },
  },
});
const REFERENCE_COUNT = Number(args.reference);
const PARTNER_COUNT = Number(args.partners);
const SEED = Number(args.seed);
const RUNS = Number(args.runs);
const DATA = path.resolve(args.data ?? path.join(ROOT, '.local/bench-map', `${REFERENCE_COUNT}-${PARTNER_COUNT}-${SEED}`));
const files = {
  reference: path.join(DATA, 'reference.csv'),
  partner: path.join(DATA, 'partner.csv'),
  truth: path.join(DATA, 'truth.csv'),
  cliOut: path.join(DATA, 'cli-results.jsonl'),
  baselineOut: path.join(DATA, 'baseline-results.jsonl'),
};

// ---------------------------------------------------------------------------------------------
// The data set, generated once

const PARTNER_COLUMNS = [
  'id',
  'name',
  'address',
  'city',
  'postalCode',
  'country',
  'lat',
  'lon',
  'rating',
  'supplierCode',
  'supplierHotelId',
] as const;

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  let chunk = '';
  for (const line of lines) {
    chunk += line;
    if (chunk.length >= 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  renameSync(partial, file);
}

async function ensureDataSet(): Promise<void> {
  if (existsSync(files.reference) && existsSync(files.partner) && existsSync(files.truth)) return;
  mkdirSync(DATA, { recursive: true });
  const started = performance.now();
  const dataset = mappingDataset({ referenceCount: REFERENCE_COUNT, partnerCount: PARTNER_COUNT, seed: SEED });
  await writeLines(
    files.reference,
    (function* () {
      yield csvHeaderLine();
      for (const hotel of dataset.reference()) yield csvLine(hotel);
    })(),
  );
  dataset.shufflePartners();
  await writeLines(
    files.partner,
    (function* () {
      yield `${PARTNER_COLUMNS.join(',')}\n`;
      for (const partner of dataset.partners)
        yield `${formatCsvRow(PARTNER_COLUMNS.map((column) => partner[column as keyof PartnerHotel]))}\n`;
    })(),
  );
  await writeLines(
    files.truth,
    (function* () {
      yield 'partnerId,referenceId\n';
      for (const [partnerId, referenceIds] of dataset.truth) for (const referenceId of referenceIds) yield `${partnerId},${referenceId}\n`;
    })(),
  );
  console.log(`data set written to ${DATA} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function readTruth(): Promise<Map<string, Set<string>>> {
  const truth = new Map<string, Set<string>>();
  for await (const row of readTabular(createReadStream(files.truth), 'csv')) {
    if ('error' in row) throw new Error(`truth.csv line ${row.line}: ${row.error}`);
    const { partnerId, referenceId } = row.record as { partnerId: string; referenceId: string };
    truth.set(partnerId, (truth.get(partnerId) ?? new Set<string>()).add(referenceId));
  }
  return truth;
}

// ---------------------------------------------------------------------------------------------
// Stage clock and report

type Stages = [name: string, seconds: number][];

interface RunReport {
  stages: Stages;
  /** Seconds from start to the end of the last stage. */
  total: number;
  /** CLI only: seconds from spawning the process to its exit (start-up and exit included). */
  processWall?: number;
  metrics: MatchMetrics;
}

class Clock {
  private readonly started = performance.now();
  private last = this.started;
  readonly stages: Stages = [];
  end(name: string): void {
    const now = performance.now();
    this.stages.push([name, (now - this.last) / 1000]);
    this.last = now;
  }
  get total(): number {
    return (this.last - this.started) / 1000;
  }
}

const seconds = (value: number) => `${value.toFixed(2)} s`;
const formatStages = (stages: Stages) => stages.map(([name, value]) => `${name} ${seconds(value)}`).join(', ');
const formatMetrics = (m: MatchMetrics) =>
  `MATCHED ${m.matched} (correct ${m.correct}), REVIEW ${m.review}, UNMATCHED ${m.unmatched}; precision ${m.precision.toFixed(4)} recall ${m.recall.toFixed(4)} F1 ${m.f1.toFixed(4)}`;

async function scoreResultsFile(file: string, truth: Map<string, Set<string>>): Promise<MatchMetrics> {
  const results: Pick<MappingResult, 'partnerHotelId' | 'referenceHotelId' | 'status'>[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    const { partnerHotelId, referenceHotelId, status } = JSON.parse(line) as MappingResult;
    results.push({ partnerHotelId, referenceHotelId, status });
  }
  return scoreMatches(results as MappingResult[], (partnerId) => truth.get(partnerId));
}

// ---------------------------------------------------------------------------------------------
// (a) The CLI, as `npm run map` runs it

async function runCli(truth: Map<string, Set<string>>): Promise<RunReport> {
  // The map script sets no heap size: neither does this run (this process's own --max-old-space-size is dropped).
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').replace(/--max-old-space-size=\d+/g, '').trim();
  const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NODE_OPTIONS: nodeOptions };
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      'infra/cli/map.ts',
      '--reference',
      files.reference,
      '--partner',
      files.partner,
      '--out',
      files.cliOut,
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code] = (await once(child, 'exit')) as [number | null];
  const processWall = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`npm run map exited with ${code}:\n${stderr}`);
  const summary = /^stages: (.*); total ([\d.]+) s$/m.exec(stderr);
  if (!summary) throw new Error(`no stage summary in the CLI's output:\n${stderr}`);
  const stages: Stages = summary[1]!.split(', ').map((part) => {
    const found = /^(.*) ([\d.]+) s$/.exec(part)!;
    return [found[1]!, Number(found[2])];
  });
  return { stages, total: Number(summary[2]), processWall, metrics: await scoreResultsFile(files.cliOut, truth) };
}

// ---------------------------------------------------------------------------------------------
// (b) The plain baseline: 300 m grid, trigram names

const GRID_METERS = 300;
const METERS_PER_DEGREE = 111_195;
const ROW_DEGREES = GRID_METERS / METERS_PER_DEGREE;
/** Least trigram Dice for a MATCHED row. */
const BASELINE_THRESHOLD = 0.5;

/** Grid rows are 300 m high; each row's columns are 300 m wide at the row's middle latitude. */
function gridRow(lat: number): number {
  return Math.floor((lat + 90) / ROW_DEGREES);
}
function columnDegrees(row: number): number {
  const middle = -90 + (row + 0.5) * ROW_DEGREES;
  return ROW_DEGREES / Math.max(0.02, Math.cos((middle * Math.PI) / 180));
}
function gridKey(row: number, lon: number): number {
  return row * 2 ** 24 + Math.floor((lon + 180) / columnDegrees(row));
}

/** Sorted distinct trigrams of the folded name, padded with a space at each end. */
class Trigrams {
  values = new Int32Array(1 << 22);
  offsets: number[] = [0];
  private readonly scratch: number[] = [];
  /** Appends a name's trigrams; returns its number. */
  add(name: string): number {
    const count = trigramsOf(name, this.scratch);
    const end = this.offsets[this.offsets.length - 1]!;
    if (end + count > this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    for (let k = 0; k < count; k++) this.values[end + k] = this.scratch[k]!;
    this.offsets.push(end + count);
    return this.offsets.length - 2;
  }
}

function trigramsOf(name: string, out: number[]): number {
  const text = ` ${foldText(name)} `;
  out.length = 0;
  for (let i = 0; i + 2 < text.length; i++)
    out.push(((text.charCodeAt(i) & 0x3ff) << 20) | ((text.charCodeAt(i + 1) & 0x3ff) << 10) | (text.charCodeAt(i + 2) & 0x3ff));
  out.sort((a, b) => a - b);
  let distinct = 0;
  for (let k = 0; k < out.length; k++) if (k === 0 || out[k] !== out[k - 1]) out[distinct++] = out[k]!;
  out.length = distinct;
  return distinct;
}

function dice(a: Int32Array, aFrom: number, aTo: number, b: readonly number[]): number {
  let shared = 0;
  let j = 0;
  for (let i = aFrom; i < aTo && j < b.length;) {
    if (a[i]! === b[j]!) {
      shared += 1;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  const total = aTo - aFrom + b.length;
  return total === 0 ? 0 : (2 * shared) / total;
}

function coordinates(record: Record<string, string>): [number, number] | undefined {
  if (!record.lat || !record.lon) return undefined;
  const lat = Number(record.lat);
  const lon = Number(record.lon);
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : undefined;
}

/** A CSV file's rows as records (column -> text), rows that cannot be read left out. */
type RecordReader = (file: string) => AsyncIterable<Record<string, string>>;

/** csv-parse itself, the header row as columns: what a plain script would write. */
async function* csvParseRecords(file: string): AsyncGenerator<Record<string, string>> {
  yield* createReadStream(file).pipe(parse({ columns: true })) as AsyncIterable<Record<string, string>>;
}

/** The project's reader: readTabular, the fast CSV reader. */
async function* fastReaderRecords(file: string): AsyncGenerator<Record<string, string>> {
  for await (const row of readTabular(createReadStream(file), 'csv')) if ('record' in row) yield row.record;
}

const BASELINES: { name: string; read: RecordReader }[] = [
  { name: 'baseline (csv-parse)', read: csvParseRecords },
  { name: 'baseline (fast reader)', read: fastReaderRecords },
];

async function runBaseline(truth: Map<string, Set<string>>, read: RecordReader): Promise<RunReport> {
  const clock = new Clock();
  // Read the reference: only hotels with a pin can be found in a grid.
  const ids: string[] = [];
  const names: string[] = [];
  const latitudes: number[] = [];
  const longitudes: number[] = [];
  for await (const record of read(files.reference)) {
    const point = coordinates(record);
    if (!record.id || !record.name || !point) continue;
    ids.push(record.id);
    names.push(record.name);
    latitudes.push(point[0]);
    longitudes.push(point[1]);
  }
  clock.end('read reference');

  // Build: trigrams of every name; hotels grouped by grid cell (counted, then placed).
  const count = ids.length;
  const trigrams = new Trigrams();
  for (const name of names) trigrams.add(name);
  const trigramOffsets = Uint32Array.from(trigrams.offsets);
  const keys = new Float64Array(count);
  const cellOfKey = new Map<number, number>();
  const cellSizes: number[] = [];
  for (let hotel = 0; hotel < count; hotel++) {
    const key = gridKey(gridRow(latitudes[hotel]!), longitudes[hotel]!);
    keys[hotel] = key;
    const cell = cellOfKey.get(key);
    if (cell === undefined) {
      cellOfKey.set(key, cellSizes.length);
      cellSizes.push(1);
    } else cellSizes[cell]! += 1;
  }
  const cellOffsets = new Uint32Array(cellSizes.length + 1);
  for (let cell = 0; cell < cellSizes.length; cell++) cellOffsets[cell + 1] = cellOffsets[cell]! + cellSizes[cell]!;
  const cursor = cellOffsets.slice(0, cellSizes.length);
  const cellHotels = new Int32Array(count);
  for (let hotel = 0; hotel < count; hotel++) cellHotels[cursor[cellOfKey.get(keys[hotel]!)!]!++] = hotel;
  clock.end('build index');

  const partners: { id: string; name: string; point: [number, number] | undefined }[] = [];
  for await (const record of read(files.partner)) {
    if (record.id && record.name) partners.push({ id: record.id, name: record.name, point: coordinates(record) });
  }
  clock.end('read partner');

  const results: Pick<MappingResult, 'partnerHotelId' | 'referenceHotelId' | 'status' | 'score'>[] = [];
  const partnerTrigrams: number[] = [];
  for (const partner of partners) {
    let best = -1;
    let bestScore = 0;
    let bestDistance = Infinity;
    if (partner.point) {
      const [lat, lon] = partner.point;
      trigramsOf(partner.name, partnerTrigrams);
      const centreRow = gridRow(lat);
      for (let row = centreRow - 1; row <= centreRow + 1; row++) {
        const centreKey = gridKey(row, lon);
        for (let key = centreKey - 1; key <= centreKey + 1; key++) {
          const cell = cellOfKey.get(key);
          if (cell === undefined) continue;
          for (let k = cellOffsets[cell]!; k < cellOffsets[cell + 1]!; k++) {
            const hotel = cellHotels[k]!;
            const score = dice(trigrams.values, trigramOffsets[hotel]!, trigramOffsets[hotel + 1]!, partnerTrigrams);
            if (score < bestScore) continue;
            const dLat = latitudes[hotel]! - lat;
            const dLon = (longitudes[hotel]! - lon) * Math.cos((lat * Math.PI) / 180);
            const distance = dLat * dLat + dLon * dLon;
            if (score > bestScore || distance < bestDistance) {
              best = hotel;
              bestScore = score;
              bestDistance = distance;
            }
          }
        }
      }
    }
    const matched = best >= 0 && bestScore >= BASELINE_THRESHOLD;
    results.push({
      partnerHotelId: partner.id,
      referenceHotelId: matched ? ids[best]! : null,
      status: matched ? 'MATCHED' : 'UNMATCHED',
      score: Math.round(bestScore * 1000) / 1000,
    });
  }
  clock.end('match');

  await writeLines(
    files.baselineOut,
    (function* () {
      for (const result of results) yield `${JSON.stringify(result)}\n`;
    })(),
  );
  clock.end('write');
  return {
    stages: clock.stages,
    total: clock.total,
    metrics: scoreMatches(results as MappingResult[], (partnerId) => truth.get(partnerId)),
  };
}

// ---------------------------------------------------------------------------------------------

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

await ensureDataSet();
const truth = await readTruth();
console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}; data ${DATA}`);
const label = (name: string) => name.padEnd(24);
const cliRuns: RunReport[] = [];
const baselineRuns = new Map<string, RunReport[]>(BASELINES.map(({ name }) => [name, []]));
for (let run = 0; run < RUNS; run++) {
  if (args.only !== 'baseline') {
    const report = await runCli(truth);
    cliRuns.push(report);
    console.log(`${label('cli')}${formatStages(report.stages)}; total ${seconds(report.total)} (process ${seconds(report.processWall!)})`);
  }
  if (args.only === 'cli') continue;
  for (const { name, read } of BASELINES) {
    const report = await runBaseline(truth, read);
    baselineRuns.get(name)!.push(report);
    console.log(`${label(name)}${formatStages(report.stages)}; total ${seconds(report.total)}`);
  }
}
if (cliRuns.length > 0) console.log(`${label('cli')}${formatMetrics(cliRuns[0]!.metrics)}`);
for (const [name, reports] of baselineRuns) if (reports.length > 0) console.log(`${label(name)}${formatMetrics(reports[0]!.metrics)}`);
if (cliRuns.length > 0 && args.only !== 'cli') {
  const cli = median(cliRuns.map((report) => report.processWall!));
  const ratios = [...baselineRuns].map(([name, reports]) => {
    const baseline = median(reports.map((report) => report.total));
    return `${name} ${seconds(baseline)}, cli / it = ${(cli / baseline).toFixed(2)}`;
  });
  console.log(`total: cli ${seconds(cli)} (process, start-up included); ${ratios.join('; ')}${RUNS > 1 ? ` (medians of ${RUNS})` : ''}`);
}
