/**
 * JSON inventories through the local runtime: a rejected element of a JSON array is named by its
 * index, also when the array is one line; a field of the wrong type (an object as a name, a number
 * as an id) rejects its row, in JSON Lines as in JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();
const BASE = '/api/v1/partner-inventories';

function upload(as: Caller, fileName: string, data: string) {
  const form = new FormData();
  form.append('name', 'JSON rows');
  form.append('file', new Blob([data]), fileName);
  return api.request('POST', BASE, { as, body: form });
}

describe('JSON inventory rows', () => {
  it('a one-line JSON array: each rejected element named by its index, the rest READY', async () => {
    const caller = await api.newOrganization();
    const elements = [
      { id: 'A', name: 'Hotel Alpha', city: 'Paris' },
      { id: 'B', name: { en: 'Hotel Beta' } },
      { id: 3, name: 'Hotel Gamma' },
      'not an object',
      { id: 'A', name: 'Alpha again' },
      { id: 'E', name: 'Hotel Epsilon', lat: 48.85, lon: 2.35, rating: 4 },
      { id: 'F', name: 'Hotel Phi', lat: true, lon: 2.35 },
    ];
    const response = await upload(caller, 'hotels.json', JSON.stringify(elements));
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.status, 'READY');
    assert.equal(response.body.hotelCount, 2);
    assert.deepEqual(response.body.rejectedSample, [
      { line: 1, reason: 'element 1: name must be text, not an object' },
      { line: 1, reason: 'element 2: id must be text, not a number (put it in quotes)' },
      { line: 1, reason: 'element 3 is not a JSON object' },
      { line: 1, reason: 'element 4: id "A" already used by element 0' },
      { line: 1, reason: 'element 6: lat must be a number, not a boolean' },
    ]);
  });

  it('JSON Lines: a field of the wrong type rejects its line; a file of nothing else is refused, naming the first', async () => {
    const caller = await api.newOrganization();
    const refused = await upload(caller, 'hotels.jsonl', '{"id": 1, "name": "One"}\n{"id": "2", "name": ["Two"]}\n');
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Bad Request',
      message: 'The file has no usable hotel row (line 1: id must be text, not a number (put it in quotes); line 2: name must be text, not an array).',
    });
    assert.deepEqual((await api.request('GET', BASE, { as: caller })).body, { inventories: [], nextCursor: null });
  });
});
