/**
 * `npm run bench:local`: starts `npm start` from a scratch state folder and prints the time from
 * launch to the first answered request, then the latency of GET /api/v1/suppliers over
 * sequential requests (median, p95, p99), and checks Ctrl-C stops every child process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../infra/local/stand-ins';

const REQUESTS = 1000;
const ROOT = join(import.meta.dirname, '..', '..');

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}/api/v1/suppliers`;
const launchedAt = performance.now();
const child = spawn('npm', ['start', '--silent'], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir },
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

  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
  console.log(`npm start -> first answered request: ${(startup / 1000).toFixed(2)} s (fresh state: DynamoDB Local, s3rver, table, seed)`);
  console.log(`GET /api/v1/suppliers x${REQUESTS} sequential: median ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`);
} finally {
  process.kill(-child.pid!, 'SIGINT');
  await new Promise((done) => child.once('exit', done));
  rmSync(stateDir, { recursive: true, force: true });
}
