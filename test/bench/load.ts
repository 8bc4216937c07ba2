/**
 * `npm run bench:load`: the local API (`npm start`, a process of its own) under concurrent load on
 * loopback, driven by autocannon. Reference search, a job's status, a results page and job
 * creation, each at 1, 10 and 50 connections for a bounded time: requests per second, p50 and p99
 * latency, answers that were not 2xx (5xx apart) and dropped connections (errors and timeouts).
 * Closed-loop connections send their next request as soon as the last is answered, so their
 * latency is connections / throughput (Little's law): at 50 they measure the process's ceiling.
 * The reads are then also sent open-loop: 50 connections sharing a fixed rate (--rate, requests
 * per second in all), whose p99 is the latency a partner sees at that load. Then a soak of the
 * three reads at 10 connections: the API process's memory (RSS) once it has settled after a
 * warm-up, and at the end.
 *
 *   npm run bench:load [-- --duration 10 --connections 1,10,50 --rate 100 --warmup 30 --soak 300]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ROOT, startLocalApiProcess, stopGracefully } from '../support/local-api-process';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,10,50' },
    rate: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '30' },
    soak: { type: 'string', default: '300' },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = args.connections.split(',').map(Number);
const RATE = Number(args.rate);
const WARMUP = Number(args.warmup);
const SOAK = Number(args.soak);

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-load-'));
const api = await startLocalApiProcess(stateDir, ['--fresh']);
try {
  const { baseUrl, apiKey, jobId, inventoryId } = await prepare();
  const headers = { 'x-api-key': apiKey };
  const routes: { name: string; request: autocannon.Request }[] = [
    { name: 'GET reference/search', request: { method: 'GET', path: '/api/v1/reference/search?q=Grand%20Hotel&limit=20', headers } },
    { name: 'GET mapping/{jobId}', request: { method: 'GET', path: `/api/v1/mapping/${jobId}`, headers } },
    { name: 'GET mapping/{jobId}/results', request: { method: 'GET', path: `/api/v1/mapping/${jobId}/results?limit=100`, headers } },
    {
      name: 'POST mapping',
      request: { method: 'POST', path: '/api/v1/mapping', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ partnerInventoryId: inventoryId }) },
    },
  ];
  console.log(`machine: ${os()}; ${DURATION} s per route and concurrency\n`);
  console.log(['route'.padEnd(30), 'conns', 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'non-2xx'.padStart(8), '5xx'.padStart(5), 'dropped'.padStart(8)].join(' '));
  for (const route of routes) {
    for (const connections of CONNECTIONS) {
      const result = await load(baseUrl, [route.request], connections, DURATION);
      console.log(
        [
          route.name.padEnd(30),
          String(connections).padStart(5),
          result.requests.average.toFixed(0).padStart(8),
          String(result.latency.p50).padStart(8),
          String(result.latency.p99).padStart(8),
          String(result.non2xx).padStart(8),
          String(result['5xx']).padStart(5),
          String(result.errors + result.timeouts).padStart(8),
        ].join(' '),
      );
    }
  }

  for (const route of routes.slice(0, 3)) {
    const result = await load(baseUrl, [route.request], 50, DURATION, RATE);
    console.log(
      [
        `${route.name} @ ${RATE}/s`.padEnd(30),
        '   50',
        result.requests.average.toFixed(0).padStart(8),
        String(result.latency.p50).padStart(8),
        String(result.latency.p99).padStart(8),
        String(result.non2xx).padStart(8),
        String(result['5xx']).padStart(5),
        String(result.errors + result.timeouts).padStart(8),
      ].join(' '),
    );
  }

  if (SOAK > 0) {
    // The jobs made above are worked in the background: let them finish before the memory is read.
    await sleep(20_000);
    const reads = routes.slice(0, 3).map((route) => route.request);
    await load(baseUrl, reads, 10, WARMUP);
    const settled = rssMegabytes(api.child.pid!);
    const soak = await load(baseUrl, reads, 10, SOAK);
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

/** `rate`: requests per second in all, shared by the connections (open loop); none, as fast as answered. */
function load(baseUrl: string, requests: autocannon.Request[], connections: number, seconds: number, rate?: number): Promise<autocannon.Result> {
  return autocannon({ url: baseUrl, connections, duration: seconds, requests, timeout: 10, ...(rate !== undefined && { overallRate: rate }) });
}

/** An ENTERPRISE organization and its key (the admin CLI), a small inventory and one job mapped over it. */
async function prepare() {
  const admin = (...command: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/cli/admin.ts'), ...command], {
        cwd: ROOT,
        env: { ...process.env, LOCAL_STATE_DIR: stateDir },
        encoding: 'utf8',
      }),
    ) as Record<string, string>;
  const organization = admin('create-org', '--name', 'Load test', '--plan', 'ENTERPRISE');
  const apiKey = admin('create-key', '--org', organization.id!).apiKey!;
  const { baseUrl } = api.credentials;
  const call = async (method: string, path: string, body?: string | FormData, contentType?: string) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers: { 'x-api-key': apiKey, ...(contentType && { 'content-type': contentType }) }, body });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const rows = ['id,name,city,country,lat,lon', ...Array.from({ length: 5 }, (_, i) => `L${i},Grand Hotel ${i},Lisbon,PT,${38.71 + i / 1000},${-9.14 + i / 1000}`)];
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

function rssMegabytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

function os(): string {
  return `${execFileSync('nproc', { encoding: 'utf8' }).trim()} cores, node ${process.version}`;
}
