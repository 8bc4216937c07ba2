/**
 * A presigned upload is declared with its size, and the URL is signed for exactly that many bytes:
 * a size over the limit (200 MB; lowered here to a kilobyte, so no test body needs 200 MB) is
 * refused with 413 before anything is created. The file lands under the uploads prefix of the
 * results bucket (outside the backups; expired after a day) and becomes the inventory's source only once its completion has
 * found it of the declared size; one of another size (s3rver, unlike S3, does not check signed
 * lengths) is removed and answered 400.
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

const startUpload = (caller: Caller, sizeBytes: number) =>
  api.request('POST', `${BASE}/uploads`, { as: caller, json: { name: 'Everything', fileName: 'hotels.csv', sizeBytes } });

async function createUpload(caller: Caller, sizeBytes = Buffer.byteLength(CSV)) {
  const created = await startUpload(caller, sizeBytes);
  assert.equal(created.status, 201, created.text);
  return created.body as { partnerInventoryId: string; upload: { url: string; headers: Record<string, string> } };
}

async function put(upload: { url: string; headers: Record<string, string> }, body: string | Buffer) {
  // The length as the body has it: a client that PUT another would be refused by S3 itself.
  const { 'Content-Length': _declared, ...headers } = upload.headers;
  const response = await fetch(upload.url, { method: 'PUT', headers, body });
  assert.equal(response.status, 200, await response.text());
}

const uploadsOf = (caller: Caller) =>
  objectKeysUnder(api.runtime, `${INVENTORY_UPLOADS_PREFIX}${caller.organization.id}/`, 'resultsBucketName');
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

  it('signs the declared length into the URL and tells the client to send it', async () => {
    const caller = await api.newOrganization();
    const { upload, ...inventory } = await createUpload(caller, 321);
    assert.equal((inventory as { sizeBytes?: number }).sizeBytes, 321);
    assert.deepEqual(upload.headers, { 'Content-Type': 'text/csv', 'Content-Length': '321' });
    assert.deepEqual(new URL(upload.url).searchParams.get('X-Amz-SignedHeaders')?.split(';'), ['content-length', 'host']);
  });

  it('refuses a declared size over the limit with 413, creating nothing, and a size that is not a positive whole number with 400', async () => {
    const caller = await api.newOrganization();
    const refused = await startUpload(caller, MAX_BYTES + 1);
    assert.equal(refused.status, 413, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Payload Too Large',
      message: `The file has ${MAX_BYTES + 1} bytes; the limit is ${MAX_BYTES}. Split it into several inventories.`,
    });
    for (const sizeBytes of [0, -1, 1.5, '12', null]) {
      const invalid = await api.request('POST', `${BASE}/uploads`, {
        as: caller,
        json: { name: 'Everything', fileName: 'hotels.csv', sizeBytes },
      });
      assert.equal(invalid.status, 400, `${JSON.stringify(sizeBytes)}: ${invalid.text}`);
    }
    const missing = await api.request('POST', `${BASE}/uploads`, { as: caller, json: { name: 'Everything', fileName: 'hotels.csv' } });
    assert.equal(missing.status, 400, missing.text);
    assert.deepEqual((await api.request('GET', BASE, { as: caller })).body.inventories, [], 'nothing was created');
  });

  it('removes a stored file of another size than the declared one at completion (400), and validates nothing', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId: id, upload } = await createUpload(caller);
    await put(upload, Buffer.alloc(MAX_BYTES, 'a'));

    const refused = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Bad Request',
      message: `The uploaded file has ${MAX_BYTES} bytes, not the ${Buffer.byteLength(CSV)} declared. It was removed: start a new upload with the file's size.`,
    });
    assert.deepEqual(await uploadsOf(caller), [], 'the refused file is gone');
    assert.deepEqual(await filesOf(caller), []);
    assert.equal((await api.request('GET', `${BASE}/${id}`, { as: caller })).body.status, 'UPLOADING');
    assert.deepEqual(api.messaging.waiting('inventory-validation'), [], 'no validation was asked for');
  });

  it('removes an upload never completed when its inventory is deleted', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId: id, upload } = await createUpload(caller);
    await put(upload, CSV);
    assert.equal((await api.request('DELETE', `${BASE}/${id}`, { as: caller })).status, 204);
    assert.deepEqual(await uploadsOf(caller), []);
  });
});
