/**
 * `npm run bench:result-search`: searching a completed job of a million rows (the results API's
 * name, city, country, reference hotel and supplier search, shared/mapping-jobs/result-search.ts).
 *
 * The job's views are written into the local bucket (s3rver) as the finishing stage writes them:
 * parts of 100,000 rows, each with its search columns. The rows are 2,000 real engine results (a
 * 50,000-hotel synthetic reference, partner rows with the usual damage) repeated under new partner
 * ids, 1,000 of them decided by a person. Printed: what the columns cost to build and keep per part,
 * the first search of a function (every part's columns read from the bucket), then searches of every
 * kind with their totals and a page of 100 rows, p50, p95 and p99 (warm, as a function serving a
 * team's searches is).
 *   npm run bench:result-search [-- --rows 1000000 --queries 300]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMatchingIndex, mapHotels, toCountryCode } from '../../shared/mapping';
import { withPartnerFacts, type ResultFilter, type StoredResult } from '../../shared/mapping-jobs/job';
import {
  mergePartition,
  partitionsToMerge,
  ResultViews,
  SEARCH_PARTS_KEPT,
  writeViewPart,
  writeViewsManifest,
  type ViewPart,
} from '../../shared/mapping-jobs/result-views';
import { searchColumnsOf, serializeSearchColumns } from '../../shared/mapping-jobs/result-search';
import type { AnswerSearch } from '../../shared/mapping';
import { searchResults } from '../../shared/mapping-jobs/results';
import { inUtf8Order, ReadCache } from '../../shared/platform/objects/block-files';
import { fileReadsOf, objectStoreOf } from '../../shared/platform/objects/services';
import { foldText } from '../../shared/platform/text';
import { localRuntime } from '../../infra/local/messaging';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, queries: { type: 'string', default: '300' } },
});
const ROWS = Number(args.rows);
const QUERIES = Number(args.queries);
const PART_ROWS = 100_000;
const SAMPLE_ROWS = 2_000;
const DECIDED = 1_000;
/** S3 Standard per GB-month, and a PUT: what keeping and writing the columns costs. */
const S3_GB_MONTH = 0.023;
const S3_PUT = 0.005 / 1000;

process.env.LOG_LEVEL = 'error';
const s3DataDir = mkdtempSync(join(tmpdir(), 'bench-result-search-'));
const stack = await provisionLocalStack({
  s3DataDir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const { runtime, messaging } = localRuntime(stack.config);
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

try {
  const dataset = mappingDataset({ referenceCount: 50_000, partnerCount: SAMPLE_ROWS + 100, seed: 20261129 });
  const index = buildMatchingIndex(dataset.reference());
  const mapped = mapHotels(index, dataset.partners, { mode: 'STANDARD' });
  const sample = mapped.slice(0, SAMPLE_ROWS).map((result, i) => withPartnerFacts(result, dataset.partners[i]!));
  const rowAt = (n: number): StoredResult => {
    const row = sample[n % SAMPLE_ROWS]!;
    return { ...row, partnerHotelId: `H${String(n).padStart(8, '0')}`, chunk: Math.floor(n / 10_000) };
  };

  const job = { organizationId: 'bench-org', id: 'bench-result-search' };
  const objects = objectStoreOf(runtime);
  const parts: ViewPart[] = [];
  let columnsMs = 0;
  let columnsBytes = 0;
  for (let part = 0; part * PART_ROWS < ROWS; part++) {
    const rows = Array.from({ length: Math.min(PART_ROWS, ROWS - part * PART_ROWS) }, (_, k) => rowAt(part * PART_ROWS + k));
    const started = performance.now();
    const bytes = serializeSearchColumns(searchColumnsOf(inUtf8Order(rows, (row) => row.partnerHotelId, 1)));
    columnsMs += performance.now() - started;
    columnsBytes += bytes.length;
    parts.push(await writeViewPart(objects, job, part, rows));
    process.stderr.write(`\rviews written: ${(part + 1) * PART_ROWS} rows`);
  }
  process.stderr.write('\n');
  const merged = Object.fromEntries(
    await Promise.all(
      partitionsToMerge(parts).map(async (partition) => [partition, await mergePartition(objects, job, partition, parts)] as const),
    ),
  );
  await writeViewsManifest(objects, job, parts, merged);

  // A person decided some rows: searches lay them over the views.
  const decided = Array.from({ length: DECIDED }, (_, k): StoredResult => {
    const row = rowAt(k * Math.floor(ROWS / DECIDED));
    return { ...row, status: 'UNMATCHED', method: 'MANUAL', referenceHotelId: null, referenceHotelName: null, score: 0 };
  });
  const decisions = {
    getDecision: async () => undefined,
    decisionsBetween: async () => [],
    decidedBetween: async () => new Set<string>(),
    decisionsOfPartition: async () => [],
  };
  // Kept across searches, as a function keeps them across requests.
  const kept = { objects, files: fileReadsOf(runtime), searchColumns: new ReadCache(SEARCH_PARTS_KEPT) };
  const views = () => new ResultViews(kept, decisions, job);

  // Searches of every kind: words of names, cities and countries the rows hold, suppliers, reference hotels, and with the filters.
  const words = [
    ...new Set(
      sample.flatMap((row) =>
        foldText(row.partnerHotelName)
          .split(' ')
          .filter((word) => word.length >= 4),
      ),
    ),
  ];
  const cities = [...new Set(sample.flatMap((row) => (row.partner.city ? [row.partner.city] : [])))];
  const countries = [...new Set(sample.flatMap((row) => toCountryCode(row.partner.country) ?? []))];
  const references = [...new Set(sample.flatMap((row) => row.referenceHotelId ?? []))];
  const suppliers = [...new Set(sample.flatMap((row) => Object.keys(row.supplierCodes ?? {})))];
  const kinds: [string, (k: number) => [AnswerSearch, ResultFilter]][] = [
    ['name', (k) => [{ name: words[(k * 7919) % words.length]! }, {}]],
    ['name + REVIEW', (k) => [{ name: words[(k * 104_729) % words.length]! }, { status: 'REVIEW' }]],
    ['city', (k) => [{ city: foldText(cities[k % cities.length]!) }, {}]],
    ['country + score', (k) => [{ country: countries[k % countries.length]! }, { minScore: 0.5 }]],
    ['reference hotel', (k) => [{ referenceHotelId: references[(k * 31) % references.length]! }, {}]],
    ['supplier', (k) => [{ suppliers: [suppliers[k % suppliers.length]!] }, {}]],
    [
      'city + supplier + MATCHED',
      (k) => [{ city: foldText(cities[(k * 3) % cities.length]!), suppliers: suppliers.slice(0, 2) }, { status: 'MATCHED' }],
    ],
  ];

  const first = performance.now();
  const cold = await searchResults(views(), async () => decided, { name: words[0]! }, {}, 100, undefined);
  const coldMs = performance.now() - first;
  const rss = process.memoryUsage().rss;

  const times = new Map<string, number[]>(kinds.map(([kind]) => [kind, []]));
  const all: number[] = [];
  let found = 0;
  for (let k = 0; k < QUERIES; k++) {
    const [kind, query] = kinds[k % kinds.length]!;
    const [search, filter] = query(k);
    const started = performance.now();
    const page = await searchResults(views(), async () => decided, search, filter, 100, undefined);
    const took = performance.now() - started;
    times.get(kind)!.push(took);
    all.push(took);
    found += page.total!;
  }

  const partCount = parts.length;
  console.log(
    `result search over a job of ${ROWS.toLocaleString('en')} rows (${partCount} parts of up to ${PART_ROWS.toLocaleString('en')}), ${DECIDED} rows decided`,
  );
  console.log(
    `  columns: built in ${ms(columnsMs / partCount)} per part (${ms(columnsMs)} in all), ${(columnsBytes / partCount / 2 ** 20).toFixed(1)} MB per part stored (${(columnsBytes / 2 ** 20).toFixed(0)} MB in all)`,
  );
  const perMillion = 1_000_000 / ROWS;
  console.log(
    `  cost per million rows: ${partCount * perMillion} PUTs ($${(partCount * perMillion * S3_PUT).toFixed(5)}), $${(((columnsBytes * perMillion) / 2 ** 30) * S3_GB_MONTH).toFixed(4)} a month kept`,
  );
  console.log(
    `  first search of a function (every part's columns read): ${ms(coldMs)}, ${cold.total} rows found; rss after: ${(rss / 2 ** 20).toFixed(0)} MB`,
  );
  const line = (label: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(28)} p50 ${ms(percentile(sorted, 50)).padStart(7)}  p95 ${ms(percentile(sorted, 95)).padStart(7)}  p99 ${ms(percentile(sorted, 99)).padStart(7)}  (${values.length})`,
    );
  };
  for (const [kind, values] of times) line(kind, values);
  line('every search', all);
  console.log(
    `  rows found per search: ${Math.round(found / QUERIES).toLocaleString('en')} on average (each counted in full, a page of 100 read)`,
  );
} finally {
  messaging.stop();
  await stack.stop();
  rmSync(s3DataDir, { recursive: true, force: true });
}
