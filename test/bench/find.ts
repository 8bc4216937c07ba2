/**
 * `npm run bench:find`: find-match (`POST /api/v1/mapping/match`) through the local API against a
 * published 1,000,000-hotel reference (the bench:mapping set, built once and kept under
 * .local/bench-find/), on one kept-alive connection, one request at a time:
 *   1. the cold index: the matching index file read from the bucket and deserialized, its size and
 *      the memory it holds, then the first request, which loads it into the service;
 *   2. warm requests of 1, 10 and 100 hotels (the data set's partner rows, shuffled): p50, p90,
 *      p99 and max, and the hotels a second.
 *   3. every row of the four labelled sets in ../shared/data answered as the CLI and a job answer
 *      it (status, hotel, score): each set published in turn (test/support/find-match-equality.ts).
 * Cold start of the function as a whole = module load (`npm run bench:bundles`) + the index load.
 *   npm run bench:find [-- --reference 1000000 --requests 2000 --seed 20261122 --sets also|only|skip]
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOrganizationKey } from '../../shared/api-keys';
import { deserializeMatchingIndex, mapHotels, type PartnerHotel } from '../../shared/mapping';
import { createOrganization } from '../../shared/organizations';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { tableOf } from '../../shared/platform/table';
import { localRuntime } from '../../infra/local/messaging';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';
import {
  LABELLED_SET_NAMES,
  LABELLED_SETS_DIRECTORY,
  labelledSetDirectory,
  labelledSetsPresent,
} from '../../infra/matcher-training/labelled-sets';
import { readIndexFile } from '../../shared/reference';
import type { CurrentReference } from '../../shared/reference/inventory';
import type { MappingDataset } from '../../infra/synthetic/mapping-dataset';
import { compareWithJobAndCli } from '../support/find-match-equality';
import { requester, type Caller } from '../support/requester';
import { publishedBenchReference } from './published-reference';

const { values: args } = parseArgs({
  options: {
    reference: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '20261122' },
    sets: { type: 'string', default: 'also' },
  },
});
if (!['also', 'only', 'skip'].includes(args.sets)) throw new Error('--sets must be also, only or skip');
const REFERENCE_COUNT = Number(args.reference);
const REQUESTS = Number(args.requests);
const SEED = Number(args.seed);
const ROOT = join(import.meta.dirname, '..', '..');
const STATE = join(ROOT, '.local', 'bench-find', `${REFERENCE_COUNT}-${SEED}`);
mkdirSync(STATE, { recursive: true });
process.env.LOG_LEVEL = 'error';

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

const stack = await provisionLocalStack({
  s3DataDir: join(STATE, 's3'),
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const { runtime, messaging } = localRuntime(stack.config);
const server = createLocalApi({ runtime });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const url = `${baseUrl}/api/v1/mapping/match`;

try {
  const dataset = mappingDataset({
    referenceCount: REFERENCE_COUNT,
    partnerCount: Math.max(1_000, Math.round(REFERENCE_COUNT / 10)),
    seed: SEED,
  });
  const current = await publishedBenchReference(runtime, dataset, STATE, `bench:find ${REFERENCE_COUNT}/${SEED}`);
  dataset.shufflePartners();
  const organization = await createOrganization(runtime, { name: 'Bench Travel', planType: 'ENTERPRISE' });
  const key = await createOrganizationKey(runtime, { organizationId: organization.id, name: 'bench', role: 'partner' });
  const headers = { 'x-api-key': key.plaintext, 'content-type': 'application/json' };

  if (args.sets !== 'only') await latencies(current, dataset, headers);
  if (args.sets !== 'skip') await labelledSets({ organization, apiKey: key.plaintext, headers: { 'x-api-key': key.plaintext } });
} finally {
  server.closeAllConnections();
  server.close();
  await stack.stop();
}

/** 1 and 2: the cold index, the engine alone, then warm requests through the API. */
async function latencies(current: CurrentReference, dataset: MappingDataset, headers: Record<string, string>): Promise<void> {
  await coldIndexAndEngine(current.artifacts.matchingIndexKey!, dataset.partners);
  global.gc?.();

  const toRow = (hotel: PartnerHotel) => ({
    id: hotel.id,
    name: hotel.name,
    address: hotel.address,
    city: hotel.city,
    postalCode: hotel.postalCode,
    country: hotel.country,
    lat: hotel.lat,
    lon: hotel.lon,
  });
  let next = 0;
  const take = (count: number) => Array.from({ length: count }, () => toRow(dataset.partners[next++ % dataset.partners.length]!));
  const find = async (hotels: unknown[]) => {
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ hotels }) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${response.status} ${text}`);
    return performance.now() - started;
  };
  const coldRequest = await find(take(1));
  console.log(`first request (the service loads the index): ${coldRequest.toFixed(0)} ms; rss ${mb(process.memoryUsage().rss)}`);

  // 2. Warm, one request at a time; the table's share counted as the requests run.
  const store = storeCalls();
  for (const size of [1, 10, 100]) {
    const count = Math.max(50, Math.round(REQUESTS / Math.sqrt(size)));
    for (let i = 0; i < 20; i++) await find(take(size)); // warms the JIT on this size
    const times: number[] = [];
    const besides: number[] = [];
    store.reset();
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      store.startRequest();
      const ms = await find(take(size));
      times.push(ms);
      besides.push(ms - store.waitedInRequest());
    }
    const elapsed = (performance.now() - started) / 1000;
    const line = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p90 ${percentile(sorted, 0.9).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
    };
    console.log(
      `${String(size).padStart(3)} hotel${size === 1 ? ' ' : 's'} a request, ${count} requests: ${line(times)}; ${Math.round((count * size) / elapsed)} hotels/s`,
    );
    console.log(`      the table (DynamoDB Local): ${store.summary(count)}`);
    console.log(`      besides waiting for the table: ${line(besides)}`);
  }
  console.log(
    `peak memory: ${mb(process.resourceUsage().maxRSS * 1024)} RSS (the API, DynamoDB Local's client side and the index in one process)`,
  );
}

/** 3: every row of each labelled set answered by find-match as the CLI and a job answer it (each set published in turn). */
async function labelledSets(caller: Caller): Promise<void> {
  if (!labelledSetsPresent()) {
    console.log(`labelled sets: not found in ${LABELLED_SETS_DIRECTORY}, skipped`);
    return;
  }
  for (const name of LABELLED_SET_NAMES) {
    const folder = labelledSetDirectory(name);
    const started = performance.now();
    const equality = await compareWithJobAndCli(
      { runtime, request: requester(baseUrl), messaging, caller },
      { reference: join(folder, 'reference.csv'), partner: join(folder, 'partner.csv') },
      mkdtempSync(join(tmpdir(), `bench-find-${name}-`)),
    );
    console.log(
      `${name}: ${equality.rows} rows in ${equality.requests} requests (${equality.contestedRequests} with rows contesting a hotel): ` +
        `${equality.rows - equality.differences.length} answered as the CLI and the job answer them, ${equality.differences.length} not ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    for (const difference of equality.differences.slice(0, 5)) console.log(`  ${JSON.stringify(difference)}`);
  }
}

/** The matching index read and deserialized as a cold function does (its own copy, dropped after), then the engine alone on it. */
async function coldIndexAndEngine(key: string, partners: readonly PartnerHotel[]): Promise<void> {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const readStarted = performance.now();
  const bytes = await readIndexFile(objectStoreOf(runtime), key);
  const read = performance.now() - readStarted;
  const index = deserializeMatchingIndex(bytes);
  const deserialized = performance.now() - readStarted - read;
  global.gc?.();
  const held = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
  console.log(
    `index: ${mb(bytes.byteLength)} file, read from s3rver in parts ${read.toFixed(0)} ms, deserialized ${deserialized.toFixed(0)} ms; ` +
      `${global.gc ? `holds ${mb(held)} of heap and buffers` : 'memory held: run with --expose-gc'}; rss ${mb(process.memoryUsage().rss)}`,
  );
  const file = join(mkdtempSync(join(tmpdir(), 'bench-find-index-')), 'index.v8');
  writeFileSync(file, bytes);
  const fresh = JSON.parse(
    execFileSync(
      process.execPath,
      ['--expose-gc', join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'test/bench/index-memory.ts'), file],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    ),
  ) as { loadMs: number; peakRssMb: number; heldRssMb: number; heapMb: number; buffersMb: number };
  rmSync(file);
  console.log(
    `  in a fresh process, from a local file: deserialized in ${fresh.loadMs.toFixed(0)} ms, peak RSS ${fresh.peakRssMb.toFixed(0)} MB, ` +
      `then ${fresh.heldRssMb.toFixed(0)} MB RSS held (heap ${fresh.heapMb.toFixed(0)} MB, buffers ${fresh.buffersMb.toFixed(0)} MB)`,
  );
  for (const size of [1, 100]) {
    const times: number[] = [];
    for (let i = 0; i < (size === 1 ? 3_000 : 300); i++) {
      const hotels = Array.from({ length: size }, (_, j) => partners[(i * size + j) % partners.length]!);
      const started = performance.now();
      mapHotels(index, hotels, { mode: 'STANDARD' });
      times.push(performance.now() - started);
    }
    const sorted = times.slice(100 / size).sort((a, b) => a - b); // the first ones warm the JIT
    console.log(
      `  the engine alone, ${String(size).padStart(3)} hotel${size === 1 ? ' ' : 's'}: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, ` +
        `p99 ${percentile(sorted, 0.99).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }
}

/**
 * Counts the table's calls and the time they take, by command; and, per request, the time it spent
 * waiting for at least one (calls made at once overlap: their union is counted once).
 */
function storeCalls() {
  const calls = new Map<string, { count: number; ms: number }>();
  let intervals: [number, number][] = [];
  tableOf(runtime).client.middlewareStack.add(
    (next, context) => async (input) => {
      const started = performance.now();
      try {
        return await next(input);
      } finally {
        const ended = performance.now();
        intervals.push([started, ended]);
        const command = context.commandName ?? 'unknown';
        const call = calls.get(command) ?? { count: 0, ms: 0 };
        calls.set(command, { count: call.count + 1, ms: call.ms + ended - started });
      }
    },
    { step: 'initialize', name: 'benchStoreCalls' },
  );
  return {
    startRequest: () => (intervals = []),
    waitedInRequest: () => {
      let waited = 0;
      let reached = -Infinity;
      for (const [start, end] of intervals.sort((a, b) => a[0] - b[0])) {
        if (end > reached) waited += end - Math.max(start, reached);
        reached = Math.max(reached, end);
      }
      return waited;
    },
    reset: () => calls.clear(),
    summary: (requests: number) =>
      [...calls]
        .map(
          ([command, { count, ms }]) =>
            `${(count / requests).toFixed(1)} ${command.replace(/Command$/, '')} of ${(ms / count).toFixed(1)} ms`,
        )
        .join(', ') + ' a request',
  };
}
