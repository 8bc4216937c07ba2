/**
 * `npm run bench:jobs`: the partner's main flow through the local API, against a 1,000,000-hotel
 * published reference (the bench:mapping set, built once and kept under .local/bench-jobs/: its
 * publication time is not part of the job figures):
 *   upload 100,000 partner rows through the presigned flow -> create a STANDARD job -> poll to
 *   COMPLETED -> page through all results -> export as CSV -> once the job is in the mapping book,
 *   upload the same inventory again and map it, then again with 5 % of its rows changed.
 * Prints each stage's time, the chunk workers' split (the book's answers, index load, matching,
 * results file writes), the finishing stage's parts (time, and the most rows any one held at once:
 * the memory a message needs follows it), the results page latency, the export time, the re-uploads' times and
 * charges, peak memory and F1 against the truth.
 *   npm run bench:jobs [-- --reference 1000000 --partners 100000 --copies 1 --first-only]
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrganizationKey } from '../../shared/api-keys';
import type { MappingResult } from '../../shared/mapping';
import { createOrganization } from '../../shared/organizations';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { localRuntime } from '../../infra/local/messaging';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';
import { scoreMatches } from './mapping-metrics';
import { publishedBenchReference } from './published-reference';

const { values: args } = parseArgs({
  options: {
    reference: { type: 'string', default: '1000000' },
    partners: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '20261122' },
    // Each partner row listed this many times (ids suffixed ~1, ~2, …): an inventory larger than the set, every hotel claimed by each copy.
    copies: { type: 'string', default: '1' },
    // Only the first job: no results pages, export or re-uploads.
    'first-only': { type: 'boolean', default: false },
  },
});
const COPIES = Number(args.copies);
const REFERENCE_COUNT = Number(args.reference);
const PARTNER_COUNT = Number(args.partners);
const SEED = Number(args.seed);
const STATE = join(import.meta.dirname, '..', '..', '.local', 'bench-jobs', `${REFERENCE_COUNT}-${SEED}`);
mkdirSync(STATE, { recursive: true });

// Chunk timings come as log lines; everything else the API logs is dropped.
process.env.LOG_LEVEL = 'info';
type ChunkLine = {
  mappingJobId: string;
  bookReadMs: number;
  indexLoadMs: number;
  matchMs: number;
  writeMs: number;
  rows: number;
  mapped: number;
};
const chunkLines: ChunkLine[] = [];
type FinishingLine = { mappingJobId: string; stage: string; part: number | string; rowsHeld: number; ms: number };
const finishingLines: FinishingLine[] = [];
const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
  const text = String(chunk);
  if (text.startsWith('{"level"') || text.startsWith('{"_aws"')) {
    if (text.includes('"message":"chunk mapped"')) chunkLines.push(JSON.parse(text));
    if (text.includes('"message":"finishing part done"')) finishingLines.push(JSON.parse(text));
    return true;
  }
  return (writeOut as (...a: unknown[]) => boolean)(chunk, ...rest);
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

// DynamoDB Local in memory (its fastest), s3rver on disk so the published reference stays.
const stack = await provisionLocalStack({
  s3DataDir: join(STATE, 's3'),
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const { runtime, messaging } = localRuntime(stack.config);
messaging.start();
const server = createLocalApi({ runtime });
// The workers share this process with the API: while one deserializes the index, a kept-alive
// socket must not time out under the poller.
server.keepAliveTimeout = 120_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

try {
  // 1. The published reference: built once; afterwards its artifacts are found in s3rver and the pointer restored.
  const dataset = mappingDataset({ referenceCount: REFERENCE_COUNT, partnerCount: PARTNER_COUNT, seed: SEED });
  await publishedBenchReference(runtime, dataset, STATE, `bench:jobs ${REFERENCE_COUNT}/${SEED}`);
  dataset.shufflePartners();

  const organization = await createOrganization(runtime, { name: 'Bench Travel', planType: 'ENTERPRISE' });
  const key = await createOrganizationKey(runtime, { organizationId: organization.id, name: 'bench', role: 'partner' });
  const headers = { 'x-api-key': key.plaintext, 'content-type': 'application/json' };
  // As a partner calls: past the organization's share of the API (429), again after Retry-After.
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 429) {
      await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
      return call(method, path, body);
    }
    const json = (await response.json()) as any;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const copyId = (id: string, copy: number) => (copy === 0 ? id : `${id}~${copy}`);
  const csv = [
    formatCsvRow(['id', 'name', 'address', 'city', 'region', 'postalCode', 'country', 'lat', 'lon', 'rating']),
    ...Array.from({ length: COPIES }, (_, copy) =>
      dataset.partners.map((p) =>
        formatCsvRow([copyId(p.id, copy), p.name, p.address, p.city, p.region, p.postalCode, p.country, p.lat, p.lon, p.rating]),
      ),
    ).flat(),
  ].join('\n');

  /** Uploads the file through the presigned flow, maps it, and polls the job to COMPLETED; prints the times. */
  const mapInventory = async (label: string, file: string) => {
    const flowStarted = performance.now();
    const upload = await call('POST', '/partner-inventories/uploads', {
      name: label,
      fileName: 'partners.csv',
      sizeBytes: Buffer.byteLength(file),
    });
    const put = await fetch(upload.upload.url, { method: 'PUT', headers: upload.upload.headers, body: file });
    if (put.status !== 200) throw new Error(`upload: ${put.status}`);
    await call('POST', `/partner-inventories/${upload.partnerInventoryId}/complete`);
    let inventory;
    do {
      await sleep(100);
      inventory = await call('GET', `/partner-inventories/${upload.partnerInventoryId}`);
    } while (inventory.status === 'VALIDATING');
    const uploaded = performance.now();
    console.log(
      `${label}: upload + validation ${seconds(uploaded - flowStarted)} (${(file.length / 2 ** 20).toFixed(1)} MB, ${inventory.hotelCount} rows ${inventory.status}, ${inventory.rejectedCount} rejected)`,
    );
    const created = await call('POST', '/mapping', { partnerInventoryId: upload.partnerInventoryId, mode: 'STANDARD' });
    let job: any;
    do {
      await sleep(250);
      job = await call('GET', `/mapping/${created.mappingJobId}`);
    } while (job.status === 'PENDING' || job.status === 'RUNNING');
    const completed = performance.now();
    if (job.status !== 'COMPLETED') throw new Error(`job ${job.status}: ${job.error}`);
    const lines = chunkLines.filter((line) => line.mappingJobId === job.mappingJobId);
    const sum = (field: 'bookReadMs' | 'indexLoadMs' | 'matchMs' | 'writeMs' | 'mapped') =>
      lines.reduce((total, line) => total + line[field], 0);
    console.log(
      `  job creation -> COMPLETED: ${seconds(completed - uploaded)} for ${job.counts.total} rows in ${lines.length} chunks, one at a time in this process; ` +
        `${job.counts.unchanged} unchanged, ${sum('mapped')} mapped, ${job.counts.processed - job.counts.unchanged} charged`,
    );
    console.log(
      `  the book's answers ${seconds(sum('bookReadMs'))}, index load ${seconds(sum('indexLoadMs'))}, matching ${seconds(sum('matchMs'))}, results files ${seconds(sum('writeMs'))}`,
    );
    const parts = finishingLines.filter((line) => line.mappingJobId === job.mappingJobId);
    const stage = (name: string) => {
      const lines = parts.filter((line) => line.stage === name);
      return `${name} ${lines.length} part${lines.length === 1 ? '' : 's'} ${seconds(lines.reduce((total, line) => total + line.ms, 0))} (at most ${Math.max(0, ...lines.map((line) => line.rowsHeld)).toLocaleString('en')} rows held)`;
    };
    console.log(
      `  finishing, part by part: ${['claims', 'views', 'scores'].map(stage).join(', ')}; the largest part held ${Math.max(0, ...parts.map((line) => line.rowsHeld)).toLocaleString('en')} rows at once`,
    );
    // Until the job's rows are in the book, the next job finds nothing there.
    while (job.bookWrite !== 'WRITTEN') {
      if (job.bookWrite === 'ABANDONED') throw new Error('the book write was abandoned');
      await sleep(250);
      job = await call('GET', `/mapping/${created.mappingJobId}`);
    }
    console.log(`  in the mapping book ${seconds(performance.now() - completed)} later`);
    return { created, job, jobMs: completed - uploaded };
  };

  // 2 and 3. Upload, validation, and the job polled to COMPLETED.
  const { created, jobMs: firstJobMs } = await mapInventory('first upload', csv);
  // The rest reads the job and maps the inventory again; --first-only stops here.
  if (!args['first-only']) {
    // 4. Every result, page by page.
    const pageTimes: number[] = [];
    const results: MappingResult[] = [];
    let cursor: string | null = null;
    do {
      const started = performance.now();
      const page = await call(
        'GET',
        `/mapping/${created.mappingJobId}/results?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      pageTimes.push(performance.now() - started);
      results.push(...page.results);
      cursor = page.nextCursor;
    } while (cursor);
    const filtered: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await call('GET', `/mapping/${created.mappingJobId}/results?status=REVIEW&limit=100`);
      filtered.push(performance.now() - started);
    }
    console.log(
      `results: ${results.length} rows in ${pageTimes.length} pages of 100 (the default): p50 ${percentile(pageTimes, 0.5).toFixed(0)} ms, p95 ${percentile(pageTimes, 0.95).toFixed(0)} ms; status=REVIEW pages of 100: p95 ${percentile(filtered, 0.95).toFixed(0)} ms`,
    );

    // 5. Export as CSV: a job above EXPORT_SYNC_MAX_ROWS is prepared by the worker (202), then the same request answers its URL.
    const exportStarted = performance.now();
    let exported = await call('POST', `/mapping/${created.mappingJobId}/export`);
    while (exported.status === 'PREPARING') {
      await sleep(250);
      exported = await call('POST', `/mapping/${created.mappingJobId}/export`);
    }
    const file = await (await fetch(exported.fileUrl)).arrayBuffer();
    console.log(
      `export: ${seconds(performance.now() - exportStarted)} for ${exported.rowCount} rows (${(file.byteLength / 2 ** 20).toFixed(1)} MB ${exported.format}, download included)`,
    );

    // Over the rows as the set gives them (a copy claims its hotel only once the first row gave it up).
    const metrics = scoreMatches(
      results.filter((result) => !result.partnerHotelId.includes('~')),
      (partnerId) => dataset.truth.get(partnerId),
    );
    console.log(
      `accuracy through the service: precision ${metrics.precision.toFixed(4)}  recall ${metrics.recall.toFixed(4)}  F1 ${metrics.f1.toFixed(4)} (MATCHED ${metrics.matched}, REVIEW ${metrics.review}, UNMATCHED ${metrics.unmatched})`,
    );
    // 6. The same inventory again, then with 5 % of its rows changed (their names): only those are mapped and charged.
    const again = await mapInventory('the same inventory again', csv);
    console.log(`  ${((again.jobMs / firstJobMs) * 100).toFixed(0)} % of the first job's time`);
    const changedCsv = [
      formatCsvRow(['id', 'name', 'address', 'city', 'region', 'postalCode', 'country', 'lat', 'lon', 'rating']),
      ...dataset.partners.map((p, i) =>
        formatCsvRow([
          p.id,
          i % 20 === 0 ? `${p.name} Annex` : p.name,
          p.address,
          p.city,
          p.region,
          p.postalCode,
          p.country,
          p.lat,
          p.lon,
          p.rating,
        ]),
      ),
    ].join('\n');
    const changed = await mapInventory('again with 5 % of rows changed', changedCsv);
    console.log(`  ${((changed.jobMs / firstJobMs) * 100).toFixed(0)} % of the first job's time`);
  }
  console.log(
    `peak memory: ${Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20)} MB RSS (API, workers and the published index in one process)`,
  );
} finally {
  messaging.stop();
  server.closeAllConnections();
  server.close();
  await stack.stop();
}
