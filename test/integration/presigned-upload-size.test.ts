/**
 * A presigned upload lands under the uploads prefix (which the bucket expires after a day) and
 * becomes the inventory's source only once its completion has checked its size: a file over the
 * limit (200 MB; lowered here to a kilobyte, so no test body needs 200 MB) is removed and answered
 * 413, leaving nothing, and a smaller one PUT to the same URL completes as usual.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { INVENTORY_FILES_PREFIX, INVENTORY_UPLOADS_PREFIX } from '../../shared/partner-inventories';
import { UPLOAD_SETTINGS } from '../../shared/partner-inventories/inventory';
import { objectKeysUnder } from '../support/cut-off';
import { startTestApi, type Caller } from '../support/test-api';

const MAX_BYTES = 1024;
const api = await startTestApi({ config: { variables: UPLOAD_SETTINGS.environment({ presignedMaxBytes: String(MAX_BYTES) }) } });
const BASE = '/api/v1/partner-inventories';
const CSV = ['id,name,city,country', 'P1,Hotel Alpha,Paris,France', 'P2,Hotel Beta,Lyon,France'].join('\n');

async function createUpload(caller: Caller) {
  const created = await api.request('POST', `${BASE}/uploads`, { as: caller, json: { name: 'Everything', fileName: 'hotels.csv' } });
  assert.equal(created.status, 201, created.text);
  return created.body as { partnerInventoryId: string; upload: { url: string; headers: Record<string, string> } };
}

async function put(upload: { url: string; headers: Record<string, string> }, body: string | Buffer) {
  const response = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body });
  assert.equal(response.status, 200, await response.text());
}

const uploadsOf = (caller: Caller) => objectKeysUnder(api.runtime, `${INVENTORY_UPLOADS_PREFIX}${caller.organization.id}/`);
const filesOf = (caller: Caller) => objectKeysUnder(api.runtime, `${INVENTORY_FILES_PREFIX}${caller.organization.id}/`);

describe('presigned uploads and their size', () => {
  it('lands under the uploads prefix, and the completion moves it to the inventory before validating it', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId: id, upload } = await createUpload(caller);
    await put(upload, CSV);
    assert.deepEqual(await uploadsOf(caller), [`${INVENTORY_UPLOADS_PREFIX}${caller.organization.id}/${id}/source.csv`]);
    assert.deepEqual(await filesOf(caller), []);

    const completed = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(completed.status, 202, completed.text);
    assert.equal(completed.body.sizeBytes, Buffer.byteLength(CSV));
    assert.deepEqual(await uploadsOf(caller), [], 'nothing waits under the uploads prefix');
    assert.deepEqual(await filesOf(caller), [`${INVENTORY_FILES_PREFIX}${caller.organization.id}/${id}/source.csv`]);
    await api.messaging.idle();
    const read = await api.request('GET', `${BASE}/${id}`, { as: caller });
    assert.equal(read.body.status, 'READY');
    assert.equal(read.body.hotelCount, 2);
  });

  it('refuses a file over the limit at completion with 413, removes it and keeps nothing; a smaller one PUT to the same URL completes', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId: id, upload } = await createUpload(caller);
    await put(upload, Buffer.alloc(MAX_BYTES + 1, 'a'));

    const refused = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(refused.status, 413, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Payload Too Large',
      message: `The uploaded file has ${MAX_BYTES + 1} bytes; the limit is ${MAX_BYTES}. It was removed: PUT a smaller one to the same URL while it works, then complete again.`,
    });
    assert.deepEqual(await uploadsOf(caller), [], 'the refused file is gone');
    assert.deepEqual(await filesOf(caller), []);
    const waiting = await api.request('GET', `${BASE}/${id}`, { as: caller });
    assert.equal(waiting.body.status, 'UPLOADING');
    assert.deepEqual(api.messaging.waiting('inventory-validation'), [], 'no validation was asked for');

    await put(upload, CSV);
    assert.equal((await api.request('POST', `${BASE}/${id}/complete`, { as: caller })).status, 202);
    await api.messaging.idle();
    assert.equal((await api.request('GET', `${BASE}/${id}`, { as: caller })).body.status, 'READY');
  });

  it('removes an upload never completed when its inventory is deleted', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId: id, upload } = await createUpload(caller);
    await put(upload, CSV);
    assert.equal((await api.request('DELETE', `${BASE}/${id}`, { as: caller })).status, 204);
    assert.deepEqual(await uploadsOf(caller), []);
  });
});
