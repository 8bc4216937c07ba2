/**
 * `npm run bench:load`: the local API (`npm start`, a process of its own) under concurrent load on
 * loopback, driven by autocannon. Reference search, a job's status, a results page and job
 * creation, each at 1, 10 and 50 connections for a bounded time: requests per second, p50 and p99
 * latency, answers that were not 2xx (5xx apart) and dropped connections (errors and timeouts).
 * Each connection sends its next request as soon as the last is answered, so under load the
 * latency is connections / throughput (Little's law): at 50 connections it measures the one
 * process's ceiling, on cores it shares with DynamoDB Local and the load generator. Then a soak of
 * the three reads at 10 connections: the API process's memory (RSS) once it has settled after a
 * warm-up, and at the end.
 *
 *   npm run bench:load [-- --duration 10 --connections 1,10,50 --warmup 30 --soak 300]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ORGANIZATION_RATE_SETTINGS } from '../../shared/platform/rate-limits';
import { adminCli, startLocalApiProcess, stopGracefully } from '../support/local-api-process';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,10,50' },
    warmup: { type: 'string', default: '30' },
    soak: { type: 'string', default: '300' },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = args.connections.split(',').map(Number);
const WARMUP = Number(args.warmup);
const SOAK = Number(args.soak);

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-load-'));
// The process's ceiling is measured, not one organization's share a second (ORGANIZATION_REQUESTS_PER_SECOND).
const api = await startLocalApiProcess(
  stateDir,
  ['--fresh'],
  ORGANIZATION_RATE_SETTINGS.environment({ requestsPerSecond: String(1_000_000) }),
);
try {
  const { baseUrl, apiKey, jobId, inventoryId } = await prepare();
  const headers = { 'x-api-key': apiKey };
  const routes: { name: string; request: autocannon.Request }[] = [
    { name: 'GET reference/search', request: { method: 'GET', path: '/api/v1/reference/search?q=Grand%20Hotel&limit=20', headers } },
    { name: 'GET mapping/{jobId}', request: { method: 'GET', path: `/api/v1/mapping/${jobId}`, headers } },
    { name: 'GET mapping/{jobId}/results', request: { method: 'GET', path: `/api/v1/mapping/${jobId}/results?limit=100`, headers } },
    {
      name: 'POST mapping',
      request: {
        method: 'POST',
        path: '/api/v1/mapping',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ partnerInventoryId: inventoryId }),
      },
    },
  ];
  console.log(`machine: ${os()}; ${DURATION} s per route and concurrency\n`);
  console.log(
    [
      'route'.padEnd(32),
      'conns',
      'req/s'.padStart(8),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'non-2xx'.padStart(8),
      '5xx'.padStart(5),
      'dropped'.padStart(8),
    ].join(' '),
  );
  const row = (name: string, connections: number, result: autocannon.Result) =>
    console.log(
      [
        name.padEnd(32),
        String(connections).padStart(5),
        result.requests.average.toFixed(0).padStart(8),
        String(result.latency.p50).padStart(8),
        String(result.latency.p99).padStart(8),
        String(result.non2xx).padStart(8),
        String(result['5xx']).padStart(5),
        String(result.errors + result.timeouts).padStart(8),
      ].join(' '),
    );
  const [reads, creates] = [routes.slice(0, 3), routes[3]!];
  for (const route of reads) {
    for (const connections of CONNECTIONS) row(route.name, connections, await load(baseUrl, [route.request], connections, DURATION));
  }
  // Last: the jobs it makes are worked in the background, and would weigh on what is measured after them.
  for (const connections of CONNECTIONS) row(creates.name, connections, await load(baseUrl, [creates.request], connections, DURATION));

  if (SOAK > 0) {
    await jobsWorked(baseUrl, apiKey);
    const requests = reads.map((route) => route.request);
    await load(baseUrl, requests, 10, WARMUP);
    const settled = rssMegabytes(api.child.pid!);
    const soak = await load(baseUrl, requests, 10, SOAK);
    const after = rssMegabytes(api.child.pid!);
    console.log(
      `\nsoak: ${SOAK} s of the three reads at 10 connections, ${soak.requests.total} requests (${soak.non2xx} not 2xx, ${soak.errors + soak.timeouts} dropped), ` +
        `p99 ${soak.latency.p99} ms; API process RSS ${settled.toFixed(0)} MB after a ${WARMUP} s warm-up, ${after.toFixed(0)} MB at the end (${((after / settled - 1) * 100).toFixed(1)} %)`,
    );
  }
} finally {
  await stopGracefully(api);
  rmSync(stateDir, { recursive: true, force: true });
}

function load(baseUrl: string, requests: autocannon.Request[], connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: baseUrl, connections, duration: seconds, requests, timeout: 10 });
}

/** An ENTERPRISE organization and its key (the admin CLI), a small inventory and one job mapped over it. */
async function prepare() {
  const admin = (...command: string[]) => adminCli(stateDir, ...command);
  const organization = admin('create-org', '--name', 'Load test', '--plan', 'ENTERPRISE');
  const apiKey = admin('create-key', '--org', organization.id!).apiKey!;
  const { baseUrl } = api.credentials;
  const call = async (method: string, path: string, body?: string | FormData, contentType?: string) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(contentType && { 'content-type': contentType }) },
      body,
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const rows = [
    'id,name,city,country,lat,lon',
    ...Array.from({ length: 5 }, (_, i) => `L${i},Grand Hotel ${i},Lisbon,PT,${38.71 + i / 1000},${-9.14 + i / 1000}`),
  ];
  const form = new FormData();
  form.append('name', 'Load test');
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'hotels.csv');
  const inventory = await call('POST', '/api/v1/partner-inventories', form);
  const inventoryId = String(inventory.partnerInventoryId);
  const job = await call('POST', '/api/v1/mapping', JSON.stringify({ partnerInventoryId: inventoryId }), 'application/json');
  const jobId = String(job.mappingJobId);
  for (let waited = 0; (await call('GET', `/api/v1/mapping/${jobId}`)).status !== 'COMPLETED'; waited++) {
    if (waited > 600) throw new Error('The first job did not complete within a minute.');
    await sleep(100);
  }
  return { baseUrl, apiKey, jobId, inventoryId };
}

/** Waits until the newest job has ended: chunks are worked in the order sent, so every job made before it has too. */
async function jobsWorked(baseUrl: string, apiKey: string): Promise<void> {
  for (let waited = 0; waited < 600; waited++) {
    const response = await fetch(`${baseUrl}/api/v1/mapping?limit=1`, { headers: { 'x-api-key': apiKey } });
    const { jobs } = (await response.json()) as { jobs: { status: string }[] };
    if (!jobs[0] || !['PENDING', 'RUNNING'].includes(jobs[0].status)) return;
    await sleep(500);
  }
  throw new Error('The jobs made under load were not worked within five minutes.');
}

function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

function os(): string {
  return `${execFileSync('nproc', { encoding: 'utf8' }).trim()} cores, node ${process.version}`;
}
