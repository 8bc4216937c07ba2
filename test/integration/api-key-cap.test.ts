/**
 * An organization holds at most MAX_ACTIVE_API_KEYS active keys (issue 33, item 9): creates beyond
 * it answer 400 and store nothing, even sent all at once; a revoked key frees its place once.
 */
import assert from 'node:assert/strict';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, it } from '@jest/globals';
import { MAX_ACTIVE_API_KEYS } from '../../shared/api-keys/credentials';
import { tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();

const create = (as: Caller, name = 'key') => api.request('POST', '/api/v1/api-keys', { as, json: { name } });
const listed = async (as: Caller) =>
  (await api.request('GET', '/api/v1/api-keys', { as })).body.apiKeys as { id: string; revokedAt?: string }[];
const active = async (as: Caller) => (await listed(as)).filter((key) => key.revokedAt === undefined).length;

function assertCapped(answer: { status: number; body: any }): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.error, 'Bad Request');
  assert.match(answer.body.message, new RegExp(`${MAX_ACTIVE_API_KEYS} active API keys`));
  assert.match(answer.body.message, /revoke/i);
}

describe('the cap on active API keys', () => {
  it('lets exactly the keys up to the cap through when many are created at once', async () => {
    const caller = await api.newOrganization();
    const answers = await Promise.all(Array.from({ length: MAX_ACTIVE_API_KEYS + 10 }, (_, index) => create(caller, `key ${index}`)));
    const created = answers.filter((answer) => answer.status === 201);
    // The organization's first key (the caller's) counts too.
    assert.equal(created.length, MAX_ACTIVE_API_KEYS - 1);
    for (const refused of answers.filter((answer) => answer.status !== 201)) assertCapped(refused);
    assert.equal(await active(caller), MAX_ACTIVE_API_KEYS);
    assertCapped(await create(caller));
  });

  it('counts only active keys: a revoked key frees its place once, however often it is revoked', async () => {
    const caller = await api.newOrganization();
    const made = await Promise.all(Array.from({ length: MAX_ACTIVE_API_KEYS - 1 }, () => create(caller)));
    assert.ok(made.every((answer) => answer.status === 201));
    assertCapped(await create(caller));
    const spare = made[0]!.body.id as string;
    const revokes = await Promise.all([1, 2, 3].map(() => api.request('DELETE', `/api/v1/api-keys/${spare}`, { as: caller })));
    assert.deepEqual(
      revokes.map((answer) => answer.status),
      [204, 204, 204],
    );
    const after = await Promise.all([1, 2, 3].map(() => create(caller)));
    assert.deepEqual(after.map((answer) => answer.status).sort(), [201, 400, 400]);
    assert.equal(await active(caller), MAX_ACTIVE_API_KEYS);
  });

  it('is kept for an organization whose keys were made before the count was (the count is taken from its keys)', async () => {
    const caller = await api.newOrganization();
    await Promise.all(Array.from({ length: MAX_ACTIVE_API_KEYS - 1 }, () => create(caller)));
    const table = tableOf(api.runtime);
    await table.client.send(new DeleteCommand({ TableName: table.name, Key: { PK: `ORG#${caller.organization.id}`, SK: 'APIKEYS' } }));
    assertCapped(await create(caller));
    const other = (await listed(caller)).find((key) => !caller.apiKey.includes(key.id))!;
    assert.equal((await api.request('DELETE', `/api/v1/api-keys/${other.id}`, { as: caller })).status, 204);
    assert.equal((await create(caller)).status, 201);
    assertCapped(await create(caller));
  });
});
