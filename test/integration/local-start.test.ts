import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from '@jest/globals';
import { freePort } from '../../infra/local/stand-ins';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-start-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: string;
  credentials: { baseUrl: string; organizationId: string; apiKey: string; adminApiKey: string; bearerToken: string };
}

const running = new Set<ChildProcess>();
afterAll(() => running.forEach((child) => child.kill('SIGINT')));

async function start(...args: string[]): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/local/start.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => output.includes('Ctrl-C') && resolve());
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
  const credentials = JSON.parse(readFileSync(join(stateDir, 'credentials.json'), 'utf8'));
  return { child, output, credentials };
}

async function stop({ child }: Started): Promise<number | null> {
  child.kill('SIGINT');
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('npm start', () => {
  it('serves the API with demo credentials, keeps state across restarts, and --fresh starts over', async () => {
    const first = await start('--fresh');
    const { baseUrl, apiKey, adminApiKey, bearerToken, organizationId } = first.credentials;
    assert.match(first.output, new RegExp(`${baseUrl}/api/v1`));
    assert.match(first.output, /Demo Travel, FREE plan/);
    // The banner shows key prefixes; the full keys are only in the credentials file.
    assert.ok(!first.output.includes(apiKey) && !first.output.includes(adminApiKey), 'no full key in the banner');
    assert.ok(first.output.includes(apiKey.slice(0, 16)) && first.output.includes(adminApiKey.slice(0, 16)));
    // Ready means usable: the demo inventory is searchable and counted at the first request.
    const statistics = (await (await fetch(`${baseUrl}/api/v1/reference/statistics`, { headers: { 'x-api-key': apiKey } })).json()) as { totalHotels: number };
    assert.equal(statistics.totalHotels, 20_000);
    const search = (await (await fetch(`${baseUrl}/api/v1/reference/search?q=hilton`, { headers: { 'x-api-key': apiKey } })).json()) as { total: number };
    assert.ok(search.total > 0);
    const suppliers = (await (await fetch(`${baseUrl}/api/v1/suppliers`)).json()) as { total: number; suppliers: { id: string }[] };
    assert.ok(suppliers.total >= 12);
    const mine = await fetch(`${baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { authorization: `Bearer ${bearerToken}` } });
    assert.equal(mine.status, 200);
    assert.ok(((await mine.json()) as { maxSuppliers: number }).maxSuppliers < suppliers.total);
    const connect = await fetch(`${baseUrl}/api/v1/suppliers/${suppliers.suppliers[0]!.id}/connect`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(connect.status, 201);
    assert.equal(await stop(first), 0);

    const second = await start();
    assert.equal(second.credentials.apiKey, apiKey, 'the demo key survives a restart');
    assert.equal(second.credentials.organizationId, organizationId);
    const kept = await fetch(`${second.credentials.baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { 'x-api-key': apiKey } });
    assert.equal(((await kept.json()) as { total: number }).total, 1, 'the connection survives a restart');
    assert.equal(await stop(second), 0);

    const fresh = await start('--fresh');
    assert.notEqual(fresh.credentials.apiKey, apiKey);
    const old = await fetch(`${fresh.credentials.baseUrl}/api/v1/suppliers/my-suppliers`, { headers: { 'x-api-key': apiKey } });
    assert.equal(old.status, 401);
    assert.equal(await stop(fresh), 0);
  }, 120_000);
});
