import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from '@jest/globals';
import { npmStart, ROOT, stopGracefully } from '../support/npm-start';

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-start-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
const start = (...args: string[]) => npmStart(stateDir, args);
const stop = stopGracefully;

describe('npm start', () => {
  it('serves the API with demo credentials, keeps state across restarts, and --fresh starts over', async () => {
    const first = await start('--fresh');
    const { baseUrl, apiKey, adminApiKey, bearerToken, organizationId } = first.credentials;
    assert.match(first.output(), new RegExp(`${baseUrl}/api/v1`));
    assert.match(first.output(), /Demo Travel, SUBSCRIPTION plan/);
    assert.match(first.output(), new RegExp(`Review console  ${baseUrl}/console `));
    // The banner shows key prefixes; the full keys are only in the credentials file.
    assert.ok(!first.output().includes(apiKey) && !first.output().includes(adminApiKey), 'no full key in the banner');
    assert.ok(first.output().includes(apiKey.slice(0, 16)) && first.output().includes(adminApiKey.slice(0, 16)));
    // Ready means usable: the demo inventory is searchable and counted at the first request.
    const statistics = (await (await fetch(`${baseUrl}/api/v1/reference/statistics`, { headers: { 'x-api-key': apiKey } })).json()) as {
      totalHotels: number;
    };
    assert.equal(statistics.totalHotels, 20_000);
    const search = (await (await fetch(`${baseUrl}/api/v1/reference/search?q=hilton`, { headers: { 'x-api-key': apiKey } })).json()) as {
      total: number;
    };
    assert.ok(search.total > 0);
    const suppliers = (await (await fetch(`${baseUrl}/api/v1/suppliers`)).json()) as { total: number; suppliers: { id: string }[] };
    assert.ok(suppliers.total >= 12);
    const mine = await fetch(`${baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { authorization: `Bearer ${bearerToken}` } });
    assert.equal(mine.status, 200);
    assert.ok(((await mine.json()) as { maxSuppliers: number }).maxSuppliers < suppliers.total);
    // The demo connects HOTELBEDS and EXPEDIA (the catalogue's first two) as it maps its review inventory; a third is the newcomer's.
    const connect = await fetch(`${baseUrl}/api/v1/suppliers/${suppliers.suppliers[2]!.id}/connect`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(connect.status, 201);
    // The review demo is mapped after ready: its job leaves the console a queue of a few hundred rows.
    type Jobs = { jobs: { status: string; counts: { total: number; review: number } }[] };
    const demoJobs = async (url: string) =>
      ((await (await fetch(`${url}/api/v1/mapping`, { headers: { 'x-api-key': apiKey } })).json()) as Jobs).jobs;
    let jobs = await demoJobs(baseUrl);
    for (const deadline = Date.now() + 90_000; jobs[0]?.status !== 'COMPLETED' && Date.now() < deadline;) {
      await sleep(500);
      jobs = await demoJobs(baseUrl);
    }
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0]!.status, 'COMPLETED');
    assert.equal(jobs[0]!.counts.total, 4_000);
    assert.ok(jobs[0]!.counts.review >= 150 && jobs[0]!.counts.review <= 400, `${jobs[0]!.counts.review} rows in REVIEW`);
    assert.equal((await fetch(`${baseUrl}/console`)).status, 200);
    assert.equal(await stop(first), 0);

    const second = await start();
    assert.equal(second.credentials.apiKey, apiKey, 'the demo key survives a restart');
    assert.equal(second.credentials.organizationId, organizationId);
    const kept = await fetch(`${second.credentials.baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { 'x-api-key': apiKey } });
    assert.equal(
      ((await kept.json()) as { total: number }).total,
      3,
      "the connections, the demo's two and the newcomer's, survive a restart",
    );
    assert.equal((await demoJobs(second.credentials.baseUrl)).length, 1, 'the review demo is mapped once');

    // DynamoDB Local dies under it: 503 with Retry-After meanwhile, then npm start has restarted it on the same data.
    const [dynamoDbLocal] = (JSON.parse(readFileSync(join(stateDir, 'processes.json'), 'utf8')) as { standIns: number[] }).standIns;
    process.kill(dynamoDbLocal!, 'SIGKILL');
    const myConnections = () => fetch(`${second.credentials.baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { 'x-api-key': apiKey } });
    const meanwhile = await myConnections();
    assert.equal(meanwhile.status, 503);
    assert.equal(meanwhile.headers.get('retry-after'), '5');
    let again = meanwhile;
    for (const deadline = Date.now() + 60_000; again.status === 503 && Date.now() < deadline;) {
      await sleep(200);
      again = await myConnections();
    }
    // The key is found: the same data folder.
    assert.equal(again.status, 200);
    assert.match(second.output(), new RegExp(`DynamoDB Local \\(process ${dynamoDbLocal}\\) stopped; restarting it`));
    assert.equal(await stop(second), 0);

    const fresh = await start('--fresh');
    assert.notEqual(fresh.credentials.apiKey, apiKey);
    const old = await fetch(`${fresh.credentials.baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { 'x-api-key': apiKey } });
    assert.equal(old.status, 401);
    assert.equal(await stop(fresh), 0);
    // Three starts of npm start, each seeding its stand-ins: under a minute alone, several beside the suite's other processes.
  }, 300_000);

  it('says in one line that DynamoDB Local needs Java 17, and exits with 1, on a machine without java', async () => {
    // A PATH that holds node and nothing else.
    const bin = mkdtempSync(join(tmpdir(), 'hotel-mapping-nojava-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/local/start.ts')], {
      cwd: ROOT,
      env: { ...process.env, PATH: bin, LOCAL_STATE_DIR: join(stateDir, 'nojava') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    rmSync(bin, { recursive: true, force: true });
    assert.equal(code, 1, output);
    const lines = output.trim().split('\n');
    assert.equal(lines.length, 1, output);
    assert.match(lines[0]!, /DynamoDB Local needs a Java runtime \(Java 17 or later\)/);
    assert.match(lines[0]!, /adoptium\.net|apt-get|brew/);
    assert.doesNotMatch(output, /ENOENT|\n\s+at /);
  }, 30_000);
});
