import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MAPPING_EXPORT_COLUMNS } from '../../shared/mapping';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();

const put = (as: Caller, json: unknown) => api.request('PUT', '/api/v1/export-format', { as, json });
const get = (as: Caller) => api.request('GET', '/api/v1/export-format', { as });

describe('export format', () => {
  it('answers 404 before any format is set', async () => {
    const caller = await api.newOrganization();
    const response = await get(caller);
    assert.equal(response.status, 404);
    assert.equal(response.body.error, 'Not Found');
    assert.match(response.body.message, /PUT \/api\/v1\/export-format/);
  });

  it('creates the configuration with the documented defaults, and GET returns it', async () => {
    const caller = await api.newOrganization();
    const saved = await put(caller, { format: 'csv' });
    assert.equal(saved.status, 200);
    assert.match(saved.body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(saved.body, {
      id: saved.body.id,
      format: 'csv',
      delimiter: ',',
      includeHeader: true,
      compression: 'none',
      updatedAt: api.clock.now().toISOString(),
    });
    assert.deepEqual((await get(caller)).body, saved.body);
  });

  it('fully replaces the configuration: omitted fields return to their defaults, the id stays', async () => {
    const caller = await api.newOrganization();
    const first = await put(caller, {
      format: 'csv',
      includeFields: ['partnerHotelId', 'referenceHotelId', 'score'],
      delimiter: ';',
      includeHeader: false,
      compression: 'gzip',
    });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.includeFields, ['partnerHotelId', 'referenceHotelId', 'score']);
    api.clock.advance(5000);
    const replaced = await put(caller, { format: 'jsonl' });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.id, first.body.id);
    assert.deepEqual(replaced.body, {
      id: first.body.id,
      format: 'jsonl',
      delimiter: ',',
      includeHeader: true,
      compression: 'none',
      updatedAt: api.clock.now().toISOString(),
    });
    assert.deepEqual((await get(caller)).body, replaced.body);
  });

  it('accepts every documented result field', async () => {
    const caller = await api.newOrganization();
    const response = await put(caller, { format: 'json', includeFields: [...MAPPING_EXPORT_COLUMNS] });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.includeFields, MAPPING_EXPORT_COLUMNS);
  });

  it('rejects invalid configurations with 400 naming the field, leaving the stored one unchanged', async () => {
    const caller = await api.newOrganization();
    const original = (await put(caller, { format: 'csv', delimiter: '|' })).body;
    const invalid: [unknown, RegExp][] = [
      [{}, /format is required/],
      [{ format: 'xml' }, /format: must be one of json, csv, jsonl, xlsx/],
      [{ format: 'xlsx', compression: 'gzip' }, /compression: must be none for xlsx: an XLSX file is a compressed archive already/],
      [{ format: 'csv', includeFields: ['partnerHotelId', 'colour'] }, /includeFields\.1: must be mapping result fields/],
      [{ format: 'csv', includeFields: [] }, /includeFields: must name at least one field/],
      [{ format: 'csv', includeFields: ['score', 'score'] }, /includeFields: must not repeat a field/],
      [{ format: 'csv', includeFields: 'score' }, /includeFields/],
      [{ format: 'csv', delimiter: ';;' }, /delimiter: must be exactly one character/],
      [{ format: 'csv', delimiter: '' }, /delimiter: must be exactly one character/],
      [{ format: 'csv', delimiter: '"' }, /delimiter: must not be a quote/],
      [{ format: 'csv', includeHeader: 'yes' }, /includeHeader: must be true or false/],
      [{ format: 'csv', compression: 'zip' }, /compression: must be gzip or none/],
      [{ format: 'csv', formatt: 'csv' }, /Unknown field "formatt"/],
      [['csv'], /must be a JSON object/],
      ['csv', /must be a JSON object/],
    ];
    for (const [body, message] of invalid) {
      const response = await put(caller, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)} answered ${response.status}`);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
      assert.equal(response.body.error, 'Bad Request');
      assert.match(response.body.message, message);
    }
    assert.deepEqual((await get(caller)).body, original);
  });

  it('answers 400 for malformed JSON and 415 for another content type, storing nothing', async () => {
    const caller = await api.newOrganization();
    const malformed = await api.request('PUT', '/api/v1/export-format', {
      as: caller,
      headers: { 'content-type': 'application/json' },
      body: '{"format": "csv",',
    });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /not valid JSON/);
    const wrongType = await api.request('PUT', '/api/v1/export-format', {
      as: caller,
      headers: { 'content-type': 'text/plain' },
      body: '{"format": "csv"}',
    });
    assert.equal(wrongType.status, 415);
    assert.equal(wrongType.body.error, 'Unsupported Media Type');
    assert.equal((await get(caller)).status, 404);
  });

  it("keeps each organization's format to itself", async () => {
    const alpha = await api.newOrganization();
    const beta = await api.newOrganization();
    await put(alpha, { format: 'json' });
    assert.equal((await get(beta)).status, 404);
    await put(beta, { format: 'csv' });
    assert.equal((await get(alpha)).body.format, 'json');
  });

  it('requires a credential', async () => {
    assert.equal((await api.request('GET', '/api/v1/export-format')).status, 401);
    assert.equal((await api.request('PUT', '/api/v1/export-format', { json: { format: 'csv' } })).status, 401);
  });
});
