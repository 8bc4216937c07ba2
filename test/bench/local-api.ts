/**
 * `npm run bench:local`: starts `npm start` from a scratch state folder and prints the time from
 * launch to the first answered request and to the demo reference inventory being published, then
 * the latency of GET /api/v1/suppliers and of a reference name search over sequential requests
 * (median, p95, p99), and checks Ctrl-C stops every child process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../infra/local/stand-ins';
import { ORGANIZATION_RATE_SETTINGS } from '../../shared/platform/rate-limits';

const REQUESTS = 1000;
const ROOT = join(import.meta.dirname, '..', '..');

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-bench-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;
const url = `${base}/suppliers`;
const launchedAt = performance.now();
const child = spawn('npm', ['start', '--silent'], {
  cwd: ROOT,
  // Latencies of one request at a time: no organization's share a second is reached, but it is lifted all the same.
  env: {
    ...process.env,
    PORT: String(port),
    LOCAL_STATE_DIR: stateDir,
    ...ORGANIZATION_RATE_SETTINGS.environment({ requestsPerSecond: String(1_000_000) }),
  },
  stdio: 'ignore',
  detached: true,
});

try {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - launchedAt > 120_000) throw new Error('npm start did not answer within 120 s');
    await sleep(20);
  }
  const startup = performance.now() - launchedAt;
  // The credentials file is written as the server starts listening, after the demo data is in.
  while (!existsSync(join(stateDir, 'credentials.json'))) await sleep(20);
  const { apiKey } = JSON.parse(readFileSync(join(stateDir, 'credentials.json'), 'utf8')) as { apiKey: string };
  const headers = { 'x-api-key': apiKey };
  for (;;) {
    const statistics = (await (await fetch(`${base}/reference/statistics`, { headers })).json()) as { totalHotels: number };
    if (statistics.totalHotels > 0) break;
    await sleep(200);
  }
  const referenceReady = performance.now() - launchedAt;

  console.log(`npm start -> first answered request: ${(startup / 1000).toFixed(2)} s (fresh state: DynamoDB Local, s3rver, table, seed)`);
  console.log(`npm start -> demo reference inventory (20,000 hotels) searchable and counted: ${(referenceReady / 1000).toFixed(2)} s`);
  await measure('GET /api/v1/suppliers', url, {});
  await measure('GET /api/v1/reference/search?q=hilton+gardn+paris', `${base}/reference/search?q=hilton+gardn+paris`, headers);
} finally {
  process.kill(-child.pid!, 'SIGINT');
  await new Promise((done) => child.once('exit', done));
  rmSync(stateDir, { recursive: true, force: true });
}

async function measure(label: string, target: string, headers: Record<string, string>): Promise<void> {
  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(target, { headers });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
  console.log(`${label} x${REQUESTS} sequential: median ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`);
}
