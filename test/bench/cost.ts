/**
 * `npm run bench:cost`: what a million mappings cost us in AWS, measured on one job's whole life
 * through the local API: a presigned upload of --partners rows and its validation, a STANDARD job
 * against a --reference hotel reference, every result read once in pages of --page rows (the
 * largest a partner may ask for), 5 % of the rows reviewed, one export. Every table call's consumed
 * capacity (by operation and index), S3 requests and bytes, queue messages, schedules, and each
 * function's time × its configured memory are priced with the dated list prices of cost/prices.ts,
 * per stage and per million mappings; then what the job leaves stored, per million rows and month. The budget (a tenth of the price) is
 * measured on the life without its reviews: a review is a person's decision, priced per thousand.
 *   npm run bench:cost [-- --partners 100000 --reference 100000 --page 1000]
 * Workers run one message at a time after each step (nothing overlaps), so each function's time
 * is its own; DynamoDB Local is slower than DynamoDB, so the Lambda figures are upper bounds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createOrganizationKey } from '../../shared/api-keys';
import { createOrganization } from '../../shared/organizations';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { DEFAULT_LAMBDA } from '../../shared/platform/http/route';
import { createS3Client } from '../../shared/platform/objects/s3-object-store';
import { EVENT_RELAY } from '../../shared/platform/events/relay';
import { TABLE_KEYS, tableOf } from '../../shared/platform/table';
import { OBJECT_USES, objectPrefixes, type BucketAccess } from '../../shared/platform/access';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { importReferenceInventory, REFERENCE_FILES_PREFIX, referencePortsOf, referenceStoreOf } from '../../shared/reference';
import { DEAD_LETTER_HANDLER_SIZING } from '../../infra/constructs/dead-lettered-queue';
import { API_TRACE_SAMPLING } from '../../infra/constructs/hotel-mapping-api';
import { localRuntime } from '../../infra/local/messaging';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';
import { itemBytes } from './cost/item-size';
import { dynamoDbMeter, s3Meter, type CapacityTally } from './cost/meters';
import { COST_BUDGET_SHARE, MILLION_MAPPINGS_PRICE_EUR, PRICES } from '../../infra/aws-prices';
import { FIND_MATCH_MIN_CHARGE, findMatchCharge, mappingChunkQueue, RESULTS_RETENTION_DAYS } from '../../shared/mapping-jobs';
import { inventoryChunkRows } from '../../shared/partner-inventories';
import { coldChunkContainer, type ColdStart } from './cost/cold-container';
import { BOOK_FILES_PREFIX } from '../../shared/mapping-book';
import { BACKUP_RETENTION_DAYS } from '../../infra/constructs/data-backup';

const { values: args } = parseArgs({
  options: {
    partners: { type: 'string', default: '100000' },
    reference: { type: 'string', default: '100000' },
    page: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '20261128' },
  },
});
const PARTNER_COUNT = Number(args.partners);
const REFERENCE_COUNT = Number(args.reference);
const PAGE_ROWS = Number(args.page);
const REVIEWS_STAGE = 'reviews';

// The API's own log lines (and its metrics' EMF lines) are not the bench's output: CloudWatch Logs
// ingests them, so their bytes are counted and priced, with Lambda's own lines (PLATFORM_LOG_BYTES).
let logBytes = 0;
const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
  if (!/^\{"(level|_aws)"/.test(String(chunk))) return (writeOut as (...a: unknown[]) => boolean)(chunk, ...rest);
  logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
  return true;
};

/**
 * What Lambda itself logs of each invocation in the JSON log format the stack sets, at the system
 * log level INFO: its platform.start and platform.report lines, as the telemetry schema writes them
 * (a traced request's ids, a cold start's initDurationMs).
 */
const PLATFORM_LOG_BYTES = (() => {
  const time = '2026-11-29T12:00:00.000Z';
  const requestId = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890';
  const tracing = {
    spanId: '1a2b3c4d5e6f7a8b',
    type: 'X-Amzn-Trace-Id',
    value: 'Root=1-67a1b2c3-0123456789abcdef01234567;Parent=1a2b3c4d5e6f7a8b;Sampled=1',
  };
  const start = { time, type: 'platform.start', record: { requestId, version: '$LATEST', tracing } };
  const metrics = { durationMs: 123.45, billedDurationMs: 124, memorySizeMB: 1024, maxMemoryUsedMB: 128, initDurationMs: 456.78 };
  const report = { time, type: 'platform.report', record: { requestId, metrics, tracing, status: 'success' } };
  return [start, report].reduce((sum, line) => sum + Buffer.byteLength(`${JSON.stringify(line)}\n`), 0);
})();

/** Each function's configured memory, by its file under functions/. */
const MEMORY_MB = new Map<string, number>([
  ...routeList.map((route) => [route.handler, route.lambda?.memoryMb ?? DEFAULT_LAMBDA.memoryMb] as const),
  ...queueList.map((queue) => [queue.handler, queue.lambda.memoryMb] as const),
  ...queueList.flatMap((queue) =>
    queue.deadLetterHandler ? [[queue.deadLetterHandler, DEAD_LETTER_HANDLER_SIZING.memoryMb] as const] : [],
  ),
  [EVENT_RELAY.handler, EVENT_RELAY.lambda.memoryMb],
]);
const QUEUE_OF_WORKER = new Map(queueList.map((queue) => [queue.handler, queue]));

const s3DataDir = mkdtempSync(join(tmpdir(), 'bench-cost-'));
const base = await provisionLocalStack({
  s3DataDir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const dynamoDb = await dynamoDbMeter(base.config.dynamoDbEndpoint!);
const s3 = await s3Meter(base.config.s3Endpoint!);
const config = { ...base.config, dynamoDbEndpoint: dynamoDb.endpoint, s3Endpoint: s3.endpoint };

interface Usage {
  invocations: Map<string, { count: number; ms: number }>;
  apiRequests: number;
  queueMessages: Map<string, number>;
  /** Bytes sent out of AWS: answers as served (compressed where the client accepts it), files downloaded from presigned URLs. */
  bytesOut: number;
}
const usage: Usage = { invocations: new Map(), apiRequests: 0, queueMessages: new Map(), bytesOut: 0 };

/** Downloads a presigned URL as a partner does, counting its bytes out. */
async function download(url: string): Promise<void> {
  const response = await fetch(url);
  usage.bytesOut += (await response.arrayBuffer()).byteLength;
}
const invoked = (handler: string, ms: number) => {
  const entry = usage.invocations.get(handler) ?? { count: 0, ms: 0 };
  usage.invocations.set(handler, { count: entry.count + 1, ms: entry.ms + ms });
  const queue = QUEUE_OF_WORKER.get(handler);
  if (queue) usage.queueMessages.set(queue.name, (usage.queueMessages.get(queue.name) ?? 0) + 1);
};
const { runtime, messaging } = localRuntime(config, { onInvocation: invoked });
const server = createLocalApi({
  runtime,
  onResponse: (route, _result, ms, wireBytes) => {
    usage.apiRequests += 1;
    usage.bytesOut += wireBytes;
    invoked(route.handler, ms);
  },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

interface StageCost {
  stage: string;
  usd: Record<string, number>;
}
const stages: StageCost[] = [];

/**
 * The cold chunk containers a job of `rows` starts in AWS: one a chunk, up to the queue's
 * concurrency, each billed its INIT phase and, when a row needs the engine, its load of the index.
 * The bench's one process loaded the index once already.
 */
function addColdStarts(cold: ColdStart, rows: number, loadsIndex: boolean): void {
  const containers = Math.min(Math.ceil(rows / inventoryChunkRows(rows)), mappingChunkQueue.concurrency.max);
  const chunks = usage.invocations.get(mappingChunkQueue.handler)!;
  chunks.ms += containers * cold.initMs + (loadsIndex ? (containers - 1) * cold.indexLoadMs : 0);
  console.log(
    `  cold chunk containers: ${containers}, each ${fmt(cold.initMs)} ms of INIT${loadsIndex ? ` and ${fmt(cold.indexLoadMs)} ms loading the index` : ''} (measured in a fresh process)`,
  );
}

/** Prices what the meters counted since the last stage, and starts the next. */
function closeStage(stage: string): void {
  stages.push({ stage, usd: priceUsage(stage) });
}

/** What the meters counted since they were last reset, in USD by service (printed with `label`); resets them. */
function priceUsage(label: string): Record<string, number> {
  const units = (tally: CapacityTally) =>
    [...tally.values()].reduce((sum, entry) => sum + entry.table + [...entry.indexes.values()].reduce((a, b) => a + b, 0), 0);
  const gbSeconds = [...usage.invocations].reduce(
    (sum, [handler, { ms }]) => sum + ((MEMORY_MB.get(handler) ?? 0) / 1024) * (ms / 1000),
    0,
  );
  const invocations = [...usage.invocations.values()].reduce((sum, entry) => sum + entry.count, 0);
  // A message costs a send, a receive and a delete (SQS bills each request; batches would share them).
  const sqsRequests = [...usage.queueMessages.values()].reduce((sum, count) => sum + count * 3, 0);
  const schedules = usage.invocations.get('mapping-jobs/create')?.count ?? 0;
  const usd = {
    'DynamoDB writes': (units(dynamoDb.writes) / 1e6) * PRICES.dynamoDb.perMillionWriteUnits,
    'DynamoDB reads': (units(dynamoDb.reads) / 1e6) * PRICES.dynamoDb.perMillionReadUnits,
    Lambda: gbSeconds * PRICES.lambda.perGbSecond + (invocations / 1e6) * PRICES.lambda.perMillionRequests,
    'S3 requests': (s3.requests.writes / 1000) * PRICES.s3.perThousandWrites + (s3.requests.reads / 1000) * PRICES.s3.perThousandReads,
    SQS: (sqsRequests / 1e6) * PRICES.sqs.perMillionRequests,
    Scheduler: (schedules / 1e6) * PRICES.scheduler.perMillionSchedules,
    'API Gateway + WAF': (usage.apiRequests / 1e6) * (PRICES.apiGateway.perMillionRequests + PRICES.waf.perMillionRequests),
    'transfer out': (usage.bytesOut / 1e9) * PRICES.dataTransferOut.perGb,
    'CloudWatch Logs': ((logBytes + invocations * PLATFORM_LOG_BYTES) / 1e9) * PRICES.cloudWatchLogs.ingestionPerGb,
    // Beyond each rule's reservoir (a trace a second, whatever the traffic): the gateway's rule for requests, Lambda's rate for workers.
    'X-Ray':
      ((usage.apiRequests * API_TRACE_SAMPLING.fixedRate + (invocations - usage.apiRequests) * PRICES.xray.lambdaFixedRate) / 1e6) *
      PRICES.xray.perMillionTracesRecorded,
  };
  const detail = (tally: CapacityTally) =>
    [...tally]
      .map(
        ([operation, entry]) =>
          `${operation} ${fmt(entry.table)}${[...entry.indexes].map(([index, n]) => ` +${index} ${fmt(n)}`).join('')} (${entry.calls} calls)`,
      )
      .join(', ') || 'none';
  console.log(
    `  ${label}: writes ${detail(dynamoDb.writes)}; reads ${detail(dynamoDb.reads)}; S3 ${s3.requests.writes} writes, ${s3.requests.reads} reads; ` +
      `Lambda ${fmt(gbSeconds)} GB-s in ${invocations} invocations; ${usage.apiRequests} API requests; ${fmt(usage.bytesOut)} bytes out; ${fmt(logBytes)} bytes logged ` +
      `(and ${fmt(invocations * PLATFORM_LOG_BYTES)} of Lambda's platform lines)`,
  );
  const largest = <T>(entries: [string, T][], size: (value: T) => number) => entries.sort(([, a], [, b]) => size(b) - size(a)).slice(0, 6);
  console.log(
    `    Lambda GB-s by function: ${largest([...usage.invocations], ({ ms }) => ms)
      .map(([handler, { count, ms }]) => `${handler} ${fmt(((MEMORY_MB.get(handler) ?? 0) / 1024) * (ms / 1000))} (${count})`)
      .join(', ')}; ` +
      `S3 writes by kind: ${largest([...s3.writesByKind], (n) => n)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')}`,
  );
  dynamoDb.reset();
  s3.reset();
  usage.invocations.clear();
  usage.queueMessages.clear();
  usage.apiRequests = 0;
  usage.bytesOut = 0;
  logBytes = 0;
  return usd;
}

function fmt(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(value >= 1 ? 1 : 4);
}

/** What a job leaves stored: its organization's and its own items in the table and GSI1, and its files in the two buckets (only the files bucket is backed up). */
/**
 * The prefixes of a bucket's objects the functions declare, the reference's left out (s3rver fails
 * listing a million hotels' files, and they are no partner's), each listed once.
 */
function partnerPrefixes(bucket: BucketAccess): string[] {
  const declared = new Set(
    [...routeList, ...queueList].flatMap(({ access }) => OBJECT_USES.flatMap((use) => objectPrefixes(access, use, bucket))),
  );
  const prefixes = [...declared].filter((prefix) => !prefix.startsWith(REFERENCE_FILES_PREFIX));
  return prefixes.filter((prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other)));
}

async function storedBytes(organizationId: string, jobId: string) {
  const table = tableOf(runtime);
  const stored = { table: 0, index: 0, files: 0, backedUpFiles: 0, bookFiles: 0, filesByKind: new Map<string, number>() };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new ScanCommand({ TableName: table.name, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) {
      if (!String(item.PK).includes(jobId) && !String(item.PK).includes(organizationId)) continue;
      const bytes = itemBytes(item);
      stored.table += bytes;
      if (item[TABLE_KEYS.gsi1.partitionKey] !== undefined) stored.index += bytes;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const s3Client = createS3Client(base.config);
  for (const [bucket, backedUp] of [
    [base.config.bucketName!, true],
    [base.config.resultsBucketName!, false],
  ] as const) {
    for (const prefix of partnerPrefixes(backedUp ? 'objects' : 'resultObjects')) {
      let token: string | undefined;
      do {
        const page = await s3Client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          if (!object.Key?.includes(organizationId) && !object.Key?.includes(jobId)) continue;
          stored.files += object.Size ?? 0;
          if (backedUp) stored.backedUpFiles += object.Size ?? 0;
          if (object.Key.startsWith(BOOK_FILES_PREFIX)) stored.bookFiles += object.Size ?? 0;
          const kind = object.Key.split('/')
            .filter((part) => part !== organizationId && part !== jobId)
            .slice(0, 2)
            .join('/')
            .replace(/\/[^/]*\.[a-z.]+$/, '');
          stored.filesByKind.set(kind, (stored.filesByKind.get(kind) ?? 0) + (object.Size ?? 0));
        }
        token = page.NextContinuationToken;
      } while (token);
    }
  }
  return stored;
}

try {
  // The reference: published without its hotel records (only the matching and search artifacts
  // matter to a job), and not part of any stage's cost.
  const dataset = mappingDataset({ referenceCount: REFERENCE_COUNT, partnerCount: PARTNER_COUNT, seed: Number(args.seed) });
  const reference = { store: referenceStoreOf(runtime), ports: referencePortsOf(runtime) };
  async function* rows() {
    let line = 1;
    for (const hotel of dataset.reference()) yield { line: ++line, hotel };
  }
  const ports = {
    ...reference.ports,
    store: {
      getCurrent: () => reference.store.getCurrent(),
      publish: reference.store.publish.bind(reference.store),
      listMerges: reference.store.listMerges.bind(reference.store),
      deleteHotels: async () => {},
    },
  };
  await importReferenceInventory(ports, rows(), `bench:cost ${REFERENCE_COUNT}`);
  dataset.shufflePartners();
  const organization = await createOrganization(runtime, { name: 'Cost Travel', planType: 'ENTERPRISE' });
  const key = await createOrganizationKey(runtime, { organizationId: organization.id, name: 'bench', role: 'partner' });
  await messaging.idle();
  dynamoDb.reset();
  s3.reset();
  usage.invocations.clear();
  usage.queueMessages.clear();

  const headers = { 'x-api-key': key.plaintext, 'content-type': 'application/json' };
  // As a partner calls: past the organization's share of the API (429, metered like any answer), again after Retry-After.
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      return call(method, path, body);
    }
    const json = (await response.json()) as any;
    if (response.status >= 300 && response.status !== 202) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  console.log(
    `bench:cost: ${PARTNER_COUNT.toLocaleString('en')} partner rows against ${REFERENCE_COUNT.toLocaleString('en')} reference hotels; prices ${PRICES.region}, ${PRICES.asOf}`,
  );

  const csv = [
    formatCsvRow(['id', 'name', 'address', 'city', 'region', 'postalCode', 'country', 'lat', 'lon', 'rating']),
    ...dataset.partners.map((p) =>
      formatCsvRow([p.id, p.name, p.address, p.city, p.region, p.postalCode, p.country, p.lat, p.lon, p.rating]),
    ),
  ].join('\n');
  /** The inventory uploaded through the presigned flow and validated: its id. */
  const uploadInventory = async (name: string): Promise<string> => {
    const upload = await call('POST', '/partner-inventories/uploads', {
      name,
      fileName: 'partners.csv',
      sizeBytes: Buffer.byteLength(csv),
    });
    const put = await fetch(upload.upload.url, { method: 'PUT', headers: upload.upload.headers, body: csv });
    if (put.status !== 200) throw new Error(`upload: ${put.status}`);
    await call('POST', `/partner-inventories/${upload.partnerInventoryId}/complete`);
    await messaging.idle();
    await call('GET', `/partner-inventories/${upload.partnerInventoryId}`);
    return upload.partnerInventoryId;
  };
  const partnerInventoryId = await uploadInventory('cost partners');
  closeStage('upload and validation');

  const created = await call('POST', '/mapping', { partnerInventoryId, mode: 'STANDARD' });
  await messaging.idle();
  const job = await call('GET', `/mapping/${created.mappingJobId}`);
  if (job.status !== 'COMPLETED') throw new Error(`job ${job.status}: ${job.error}`);
  const mapped = job.counts.processed as number;
  const cold = await coldChunkContainer(
    base.config,
    mappingChunkQueue.handler,
    (await referenceStoreOf(runtime).getCurrent())!.artifacts.matchingIndexKey!,
  );
  addColdStarts(cold, mapped, true);
  closeStage('job');

  const results: { partnerHotelId: string; status: string; referenceHotelId: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(
      'GET',
      `/mapping/${created.mappingJobId}/results?limit=${PAGE_ROWS}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    results.push(...page.results);
    cursor = page.nextCursor;
  } while (cursor);
  closeStage(`results read once (pages of ${PAGE_ROWS})`);

  const storedBeforeReviews = await storedBytes(organization.id, created.mappingJobId);
  // Measuring is no part of the life.
  dynamoDb.reset();

  // 5 % of the rows decided by a person: the REVIEW rows first, then others.
  const reviewed = [...results.filter((row) => row.status === 'REVIEW'), ...results.filter((row) => row.status !== 'REVIEW')].slice(
    0,
    Math.round(mapped * 0.05),
  );
  for (const row of reviewed) {
    const decision = row.referenceHotelId ? { decision: 'MATCH', referenceHotelId: row.referenceHotelId } : { decision: 'NO_MATCH' };
    await call('POST', `/mapping/${created.mappingJobId}/reviews`, { partnerHotelId: row.partnerHotelId, ...decision });
  }
  await messaging.idle();
  closeStage(REVIEWS_STAGE);

  let exported = await call('POST', `/mapping/${created.mappingJobId}/export`);
  if (exported.status === 'PREPARING') {
    await messaging.idle();
    exported = await call('POST', `/mapping/${created.mappingJobId}/export`);
  }
  await download(exported.fileUrl);
  closeStage('export');

  const stored = await storedBytes(organization.id, created.mappingJobId);

  // Find-match, priced apart: the same hotels mapped within requests of 1, 10 and 100 (the job's rows are in the book).
  // Measuring what is stored is no part of it.
  dynamoDb.reset();
  s3.reset();
  const findMatchCosts: { label: string; requests: number; charged: number; usd: Record<string, number> }[] = [];
  let nextPartner = 0;
  for (const [size, view, requests] of [
    [1, 'BOOK', 400],
    [10, 'BOOK', 100],
    [100, 'BOOK', 40],
    [100, 'ENGINE', 40],
  ] as const) {
    for (let i = 0; i < requests; i++) {
      const hotels = Array.from({ length: size }, () => dataset.partners[nextPartner++ % dataset.partners.length]!).map((p) => ({
        id: p.id,
        name: p.name,
        address: p.address,
        city: p.city,
        postalCode: p.postalCode,
        country: p.country,
        lat: p.lat,
        lon: p.lon,
      }));
      await call('POST', '/mapping/match', { hotels, view });
    }
    const label = `find-match, ${String(size).padStart(3)} a request, view ${view}`;
    findMatchCosts.push({ label, requests, charged: findMatchCharge(size) * requests, usd: priceUsage(label) });
  }

  // The same inventory again, twice, priced apart. Every row is unchanged since the book took it; the
  // first time, the book's write also folds the reviews' decisions into its files (and removes their items).
  const mapAgain = async (label: string) => {
    const again = await call('POST', '/mapping', { partnerInventoryId: await uploadInventory(label), mode: 'STANDARD' });
    await messaging.idle();
    const againJob = await call('GET', `/mapping/${again.mappingJobId}`);
    addColdStarts(cold, againJob.counts.processed, againJob.counts.unchanged < againJob.counts.processed);
    return { job: againJob, usd: priceUsage(label) };
  };
  const folding = await mapAgain('the same inventory again, folding the decisions');
  const { job: againJob, usd: unchangedUsd } = await mapAgain('the same inventory again');

  const perMillion = 1e6 / mapped;
  const services = Object.keys(stages[0]!.usd);
  console.log(`\ncost of the life, per million mappings (USD; ${mapped.toLocaleString('en')} rows mapped, scaled by ${fmt(perMillion)}):`);
  console.log(['stage'.padEnd(24), ...services.map((name) => name.padStart(18)), 'total'.padStart(10)].join(''));
  const totals = Object.fromEntries(services.map((name) => [name, 0]));
  for (const { stage, usd } of stages) {
    const line = services.map((name) => usd[name]! * perMillion);
    services.forEach((name, index) => (totals[name]! += line[index]!));
    console.log(
      [
        stage.padEnd(24),
        ...line.map((value) => value.toFixed(4).padStart(18)),
        line
          .reduce((a, b) => a + b, 0)
          .toFixed(4)
          .padStart(10),
      ].join(''),
    );
  }
  const lifeTotal = Object.values(totals).reduce((a, b) => a + b, 0);
  console.log(
    ['all'.padEnd(24), ...services.map((name) => totals[name]!.toFixed(4).padStart(18)), lifeTotal.toFixed(4).padStart(10)].join(''),
  );
  const reviewsCost = Object.values(stages.find(({ stage }) => stage === REVIEWS_STAGE)!.usd).reduce((a, b) => a + b, 0);
  const machineLife = lifeTotal - reviewsCost * perMillion;

  const gb = (bytes: number) => (bytes * perMillion) / 1e9;
  // Stored a month (the results' 30-day retention); on a retaining stage, backed up daily as well.
  const months = {
    stored: RESULTS_RETENTION_DAYS / 30.4,
    backedUpFiles: (RESULTS_RETENTION_DAYS + BACKUP_RETENTION_DAYS) / 30.4,
    backedUpItems: (RESULTS_RETENTION_DAYS * BACKUP_RETENTION_DAYS) / 30.4,
  };
  const storageCost = (table: number, index: number, files: number, backedUpFiles: number) => ({
    stored:
      (gb(table + index) * PRICES.dynamoDb.storagePerGbMonth +
        gb(table) * PRICES.dynamoDb.pitrPerGbMonth +
        gb(files) * PRICES.s3.storagePerGbMonth) *
      months.stored,
    backups:
      gb(backedUpFiles) * PRICES.backup.s3PerGbMonth * months.backedUpFiles +
      gb(table) * PRICES.backup.dynamoDbPerGbMonth * months.backedUpItems,
  });
  const reviewsTable = stored.table - storedBeforeReviews.table;
  const reviewsIndex = stored.index - storedBeforeReviews.index;
  const jobStorage = storageCost(stored.table - reviewsTable, stored.index - reviewsIndex, stored.files, stored.backedUpFiles);
  const reviewsStorage = storageCost(reviewsTable, reviewsIndex, 0, 0);
  console.log(
    `\nstored per row: table ${fmt(stored.table / mapped)} bytes (${fmt(reviewsTable / mapped)} of them decisions), GSI1 ${fmt(stored.index / mapped)} bytes, ` +
      `files ${fmt(stored.files / mapped)} bytes (${fmt(stored.backedUpFiles / mapped)} of them in the backed-up files bucket)`,
  );
  console.log(
    `  files by kind, bytes per row: ${[...stored.filesByKind].map(([kind, bytes]) => `${kind} ${fmt(bytes / mapped)}`).join(', ')}`,
  );
  console.log(
    `storage over the ${RESULTS_RETENTION_DAYS}-day retention, per million rows: ${jobStorage.stored.toFixed(4)} USD (table and GSI1 ${PRICES.dynamoDb.storagePerGbMonth}/GB-month, PITR ${PRICES.dynamoDb.pitrPerGbMonth} on the table, S3 ${PRICES.s3.storagePerGbMonth}); ` +
      `a retaining stage's daily backups add ${jobStorage.backups.toFixed(4)} USD`,
  );
  // The book outlives the job: its generation is kept (and backed up) every month the organization keeps its book.
  const bookMonth = gb(stored.bookFiles) * (PRICES.s3.storagePerGbMonth + PRICES.backup.s3PerGbMonth);
  console.log(
    `the mapping book: ${fmt(stored.bookFiles / mapped)} bytes per entry in the files bucket, ${bookMonth.toFixed(4)} USD per million entries and month kept, backups included ` +
      `(the first month is in the storage above)`,
  );
  const budget = MILLION_MAPPINGS_PRICE_EUR * COST_BUDGET_SHARE;
  const budgeted = machineLife + jobStorage.stored;
  const share = (usd: number) => `${((usd / budget) * 100).toFixed(0)} %`;
  console.log(
    `\nlife without reviews ${machineLife.toFixed(4)} USD + stored ${jobStorage.stored.toFixed(4)} USD = ${budgeted.toFixed(4)} per million mappings; ` +
      `the price is ${MILLION_MAPPINGS_PRICE_EUR} EUR, the budget ${budget.toFixed(2)}: ${share(budgeted)} of it (${share(budgeted + jobStorage.backups)} with backups)`,
  );
  console.log(`\nfind-match (USD; a request is charged at least ${FIND_MATCH_MIN_CHARGE} mappings):`);
  for (const { label, requests, charged, usd } of findMatchCosts) {
    const total = Object.values(usd).reduce((a, b) => a + b, 0);
    const priced = Object.entries(usd)
      .filter(([, value]) => value > 0)
      .map(([name, value]) => `${name} ${((value * 1e6) / requests).toFixed(2)}`);
    console.log(
      `  ${label}: ${((total * 1e6) / requests).toFixed(2)} per million requests (${priced.join(', ')}); ${((total * 1e6) / charged).toFixed(4)} per million mappings charged`,
    );
  }
  const perMillionRows = (usd: Record<string, number>) => {
    const priced = Object.entries(usd)
      .filter(([, value]) => value > 0)
      .map(([name, value]) => `${name} ${(value * perMillion).toFixed(4)}`);
    return `${(Object.values(usd).reduce((a, b) => a + b, 0) * perMillion).toFixed(4)} USD per million rows (${priced.join(', ')})`;
  };
  console.log(
    `\nthe same inventory again (upload, validation, job and book write): ${perMillionRows(unchangedUsd)}; ` +
      `${againJob.counts.unchanged.toLocaleString('en')} of ${againJob.counts.processed.toLocaleString('en')} rows unchanged, ${(againJob.counts.processed - againJob.counts.unchanged).toLocaleString('en')} charged; ` +
      `the first time again, its write folding the reviews' decisions: ${perMillionRows(folding.usd)}`,
  );
  const perReview = (usd: number) => ((usd / reviewed.length) * 1000).toFixed(4);
  console.log(
    `reviews: ${perReview(reviewsCost)} USD per thousand, their decisions stored ${perReview(reviewsStorage.stored / perMillion)} (backups ${perReview(reviewsStorage.backups / perMillion)}); ` +
      `${reviewed.length.toLocaleString('en')} reviewed, ${((reviewsCost + reviewsStorage.stored / perMillion) * perMillion).toFixed(4)} USD per million mappings at this 5 % rate`,
  );
} finally {
  server.closeAllConnections();
  server.close();
  await dynamoDb.close();
  await s3.close();
  await base.stop();
  rmSync(s3DataDir, { recursive: true, force: true });
}
