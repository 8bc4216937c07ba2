import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { promisify } from 'node:util';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function admin(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, TABLE_NAME: api.config.tableName, AWS_REGION: api.config.region },
    });
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, json: undefined, stderr: failed.stderr };
  }
}

/** Each CLI run is a process of its own (tsx's start: a second or two alone, several beside the suite's other processes). */
const CLI_RUNS_TIMEOUT = 120_000;

describe('npm run admin', () => {
  it(
    'creates an organization and a key that works against the API, lists and revokes it',
    async () => {
      const org = await admin('create-org', '--name', 'Acme Travel', '--plan', 'subscription');
      assert.equal(org.code, 0, org.stderr);
      assert.equal(org.json.planType, 'SUBSCRIPTION');
      const key = await admin('create-key', '--org', org.json.id, '--name', 'ci');
      assert.equal(key.code, 0, key.stderr);
      assert.equal(key.json.secretHash, undefined);
      const asKey = { headers: { 'x-api-key': key.json.apiKey } };
      const mine = await api.request('GET', '/api/v1/suppliers/my-suppliers', asKey);
      assert.equal(mine.status, 200);
      assert.equal(mine.body.maxSuppliers, 10);

      const listed = await admin('list', '--org', org.json.id);
      assert.deepEqual(
        listed.json.apiKeys.map((k: { prefix: string }) => k.prefix),
        [key.json.prefix],
      );
      assert.ok(!JSON.stringify(listed.json).includes(key.json.apiKey));
      const organizations = await admin('list');
      assert.ok(organizations.json.some((o: { id: string }) => o.id === org.json.id));

      const revoked = await admin('revoke-key', '--org', org.json.id, '--key', key.json.id);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok(revoked.json.revokedAt);
      assert.equal((await api.request('GET', '/api/v1/suppliers/my-suppliers', asKey)).status, 401);
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'creates admin keys',
    async () => {
      const org = await admin('create-org', '--name', 'Back office', '--plan', 'ENTERPRISE');
      const key = await admin('create-key', '--org', org.json.id, '--admin');
      assert.equal(key.json.role, 'admin');
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'explains bad usage with exit code 2 and changes nothing',
    async () => {
      const before = (await admin('list')).json.length;
      for (const args of [[], ['create-org'], ['create-org', '--name', 'X', '--plan', 'GOLD'], ['frobnicate']]) {
        const result = await admin(...args);
        assert.equal(result.code, 2, args.join(' '));
        assert.match(result.stderr, /Usage: npm run admin/);
      }
      assert.equal((await admin('list')).json.length, before);
    },
    CLI_RUNS_TIMEOUT,
  );
});
