/**
 * A workbook whose archive lies about its size (3 MB declaring 1,000 bytes of worksheet that
 * inflate to 3 GB) through every route that reads an upload: refused with the reason, nothing
 * stored. That the refusal comes after about the declared bytes' work, with nothing left inflating,
 * is the reader's check's own (test/unit/platform/tabular.test.ts measures it in bytes).
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startTestApi, type Caller } from '../support/test-api';
import { workbookBomb } from '../support/workbook-bombs';

const api = await startTestApi();
const bomb = await workbookBomb({ inflatedMebibytes: 3000, declaredBytes: 1000 });
const REASON =
  'the file is not a readable XLSX workbook: its parts inflate to more than its archive declares (a corrupt or crafted archive)';
const INVENTORIES = '/api/v1/partner-inventories';

function bombForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([bomb]), 'hotels.xlsx');
  return form;
}

async function assertNoInventories(caller: Caller) {
  assert.deepEqual((await api.request('GET', INVENTORIES, { as: caller })).body, { inventories: [], nextCursor: null });
}

describe('a workbook whose archive lies about its size', () => {
  it('is 3 MB and declares a few kilobytes', () => {
    assert.ok(bomb.length > 3_000_000 && bomb.length < 4 * 1024 * 1024, `${bomb.length}`);
  });

  it('POST /partner-inventories: 400 with the reason, nothing stored', async () => {
    const caller = await api.newOrganization();
    const answer = await api.request('POST', INVENTORIES, { as: caller, body: bombForm({ name: 'Bomb' }) });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.body, { error: 'Bad Request', message: `The file cannot be read: ${REASON}` });
    await assertNoInventories(caller);
  });

  it('POST /suppliers/request: 400 with the reason, no request stored', async () => {
    const caller = await api.newOrganization();
    const answer = await api.request('POST', '/api/v1/suppliers/request', { as: caller, body: bombForm({ supplierName: 'Bomb Beds' }) });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.body, { error: 'Bad Request', message: `The file could not be read as XLSX: ${REASON}` });
    assert.deepEqual((await api.request('GET', '/api/v1/suppliers/requests', { as: caller })).body, { requests: [], total: 0 });
  });

  it('a presigned upload ends FAILED with the reason', async () => {
    const caller = await api.newOrganization();
    const created = await api.request('POST', `${INVENTORIES}/uploads`, {
      as: caller,
      json: { name: 'Bomb', fileName: 'hotels.xlsx', sizeBytes: bomb.length },
    });
    assert.equal(created.status, 201, created.text);
    const put = await fetch(created.body.upload.url, { method: 'PUT', headers: created.body.upload.headers, body: bomb });
    assert.equal(put.status, 200, await put.text());
    const id = created.body.partnerInventoryId;
    assert.equal((await api.request('POST', `${INVENTORIES}/${id}/complete`, { as: caller })).status, 202);
    await api.messaging.idle();
    const inventory = (await api.request('GET', `${INVENTORIES}/${id}`, { as: caller })).body;
    assert.equal(inventory.status, 'FAILED');
    assert.equal(inventory.error, `The file cannot be read: ${REASON}`);
    assert.equal(inventory.hotelCount, 0);
  });
});
