/**
 * `npm run bench:export`: how fast the local runtime writes a job's export, the figure that decides
 * which exports answer at once and which a worker prepares (EXPORT_SYNC_MAX_ROWS in
 * shared/mapping-jobs/export-preparation.ts).
 *
 * A completed job of `--rows` rows (default 100,000) is written straight into the table and the
 * bucket: 2,000 real engine results (a 50,000-hotel synthetic reference, partner rows with the
 * usual damage) repeated per chunk under new partner ids, with 1% of the rows reviewed. The export
 * then runs through the API with the synchronous path forced, in each format, timed to its answer.
 *   npm run bench:export [-- --rows 100000]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrganizationKey } from '../../shared/api-keys';
import { buildMatchingIndex, mapHotels, type MappingResult } from '../../shared/mapping';
import { jobObjects, type MappingJob } from '../../shared/mapping-jobs/job';
import { resultsFileBytes } from '../../shared/mapping-jobs/results-files';
import { mappingJobStoreOf } from '../../shared/mapping-jobs/store';
import { createOrganization } from '../../shared/organizations';
import { resultObjectStoreOf } from '../../shared/platform/objects/services';
import { batchWrite, tableOf } from '../../shared/platform/table';
import { localRuntime } from '../../infra/local/messaging';
import { createLocalApi } from '../../infra/local/server';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '100000' } } });
const ROWS = Number(args.rows);
const CHUNK_ROWS = 2_000;

process.env.LOG_LEVEL = 'error';
const s3DataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
const stack = await provisionLocalStack({
  s3DataDir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
// Every export answers at once here: the point is to time the writing itself.
const { runtime, messaging } = localRuntime({ ...stack.config, variables: { EXPORT_SYNC_MAX_ROWS: String(Number.MAX_SAFE_INTEGER) } });
const server = createLocalApi({ runtime });
const servers = [server];
let workers: { stop(): void } | undefined;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;

try {
  // A few more partner rows than a chunk: the generator yields slightly fewer than asked.
  const dataset = mappingDataset({ referenceCount: 50_000, partnerCount: CHUNK_ROWS + 100, seed: 20261128 });
  const index = buildMatchingIndex(dataset.reference());
  const sample = mapHotels(index, dataset.partners, { mode: 'STANDARD' }).slice(0, CHUNK_ROWS);
  if (sample.length < CHUNK_ROWS) throw new Error(`only ${sample.length} sample rows`);

  const organization = await createOrganization(runtime, { name: 'Bench Travel', planType: 'ENTERPRISE' });
  const key = await createOrganizationKey(runtime, { organizationId: organization.id, name: 'bench', role: 'partner' });
  const chunkCount = Math.ceil(ROWS / CHUNK_ROWS);
  const now = new Date().toISOString();
  const job: MappingJob = {
    id: randomUUID(),
    organizationId: organization.id,
    partnerInventoryId: randomUUID(),
    mode: 'STANDARD',
    status: 'COMPLETED',
    reference: { artifactsId: 'bench', dataVersionId: 'bench', matchingIndexKey: 'bench' },
    chunkCount,
    counts: { total: ROWS, processed: ROWS, matched: 0, review: 0, unmatched: 0, unchanged: 0 },
    createdAt: now,
    completedAt: now,
    updatedAt: now,
  };
  await mappingJobStoreOf(runtime).create(job);
  const objects = resultObjectStoreOf(runtime);
  const reviewed: Record<string, unknown>[] = [];
  let fileBytes = 0;
  for (let chunk = 0; chunk < chunkCount; chunk++) {
    const rows = sample
      .slice(0, Math.min(CHUNK_ROWS, ROWS - chunk * CHUNK_ROWS))
      .map((result): MappingResult => ({ ...result, partnerHotelId: `${result.partnerHotelId}-${chunk}` }));
    const text = rows.map((row) => JSON.stringify(row)).join('\n');
    fileBytes += text.length;
    await objects.put(jobObjects.results(job, chunk), resultsFileBytes(text), 'application/gzip');
    for (const row of rows.filter((_, i) => i % 100 === 0)) {
      reviewed.push({
        PK: `JOB#${job.id}`,
        SK: `DECISION#${row.partnerHotelId}`,
        ...row,
        chunk,
        status: 'UNMATCHED',
        method: 'MANUAL',
        referenceHotelId: null,
      });
    }
  }
  await batchWrite(
    tableOf(runtime),
    reviewed.map((Item) => ({ PutRequest: { Item } })),
  );
  console.log(`job: ${ROWS} rows in ${chunkCount} results files (${(fileBytes / 2 ** 20).toFixed(1)} MB), ${reviewed.length} decisions`);

  const headers = { 'x-api-key': key.plaintext, 'content-type': 'application/json' };
  for (const format of [{ format: 'csv' }, { format: 'jsonl' }, { format: 'json' }, { format: 'csv', compression: 'gzip' }]) {
    await fetch(`${base}/export-format`, { method: 'PUT', headers, body: JSON.stringify(format) });
    const started = performance.now();
    const response = await fetch(`${base}/mapping/${job.id}/export`, { method: 'POST', headers });
    const answered = (performance.now() - started) / 1000;
    const body = (await response.json()) as { rowCount: number; fileUrl: string };
    if (response.status !== 200) throw new Error(`export: ${response.status} ${JSON.stringify(body)}`);
    const size = (await (await fetch(body.fileUrl)).arrayBuffer()).byteLength;
    console.log(
      `export ${JSON.stringify(format)}: ${answered.toFixed(1)} s for ${body.rowCount} rows = ${Math.round(body.rowCount / answered)} rows/s ` +
        `(${(size / 2 ** 20).toFixed(1)} MB file; peak RSS so far ${Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20)} MB)`,
    );
  }

  // As deployed: above EXPORT_SYNC_MAX_ROWS the request answers 202 and the worker writes the file.
  const deployed = localRuntime(stack.config);
  deployed.messaging.start();
  workers = deployed.messaging;
  const deployedServer = createLocalApi({ runtime: deployed.runtime });
  servers.push(deployedServer);
  await new Promise<void>((resolve) => deployedServer.listen(0, '127.0.0.1', resolve));
  const deployedBase = `http://127.0.0.1:${(deployedServer.address() as AddressInfo).port}/api/v1`;
  const started = performance.now();
  const first = await fetch(`${deployedBase}/mapping/${job.id}/export`, { method: 'POST', headers });
  const firstMs = performance.now() - started;
  let ready = first;
  // Asked again as a partner would: the organization's request rate answers 429 to a tighter loop.
  while (ready.status === 202 || ready.status === 429) {
    await ready.arrayBuffer();
    await sleep(1_000);
    ready = await fetch(`${deployedBase}/mapping/${job.id}/export`, { method: 'POST', headers });
  }
  const body = (await ready.json()) as { rowCount: number };
  console.log(
    `export through the worker (the saved format above): first answer ${first.status} (Retry-After ${first.headers.get('retry-after')} s) in ${firstMs.toFixed(0)} ms, ` +
      `then ${ready.status} with ${body.rowCount} rows after ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} finally {
  messaging.stop();
  workers?.stop();
  for (const open of servers) {
    open.closeAllConnections();
    open.close();
  }
  await stack.stop();
  rmSync(s3DataDir, { recursive: true, force: true });
}
