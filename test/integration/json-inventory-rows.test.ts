/**
 * JSON inventories through the local runtime: a rejected element of a JSON array is named by its
 * index, also when the array is one line; a field of the wrong type (an object as a name, a number
 * as an id) rejects its row, in JSON Lines as in JSON; an id the API's lookups refuse rejects its row.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();
const seedReference = () => seedReferenceInventory(api.runtime, { hotels: 50, seed: 3 });
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

  it('a number too large for a double is out of range, not "not a number"', async () => {
    const caller = await api.newOrganization();
    const uploaded = await upload(
      caller,
      'hotels.jsonl',
      '{"id":"I1","name":"Far","lat":1e999,"lon":2}\n{"id":"I2","name":"Near","lat":48.85,"lon":2.35}\n',
    );
    assert.equal(uploaded.status, 201, uploaded.text);
    assert.deepEqual(uploaded.body.rejectedSample, [{ line: 1, reason: 'lat Infinity is outside -90..90' }]);
  });

  it('JSON Lines: a field of the wrong type rejects its line; a file of nothing else is refused, naming the first', async () => {
    const caller = await api.newOrganization();
    const refused = await upload(caller, 'hotels.jsonl', '{"id": 1, "name": "One"}\n{"id": "2", "name": ["Two"]}\n');
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Bad Request',
      message:
        'The file has no usable hotel row (line 1: id must be text, not a number (put it in quotes); line 2: name must be text, not an array).',
    });
    assert.deepEqual((await api.request('GET', BASE, { as: caller })).body, { inventories: [], nextCursor: null });
  });

  it('one rule for a partner hotel id: an id the API could not look up (a tab, a line break, half a surrogate pair) rejects its row in a file and in find-match', async () => {
    const caller = await api.newOrganization();
    const refusedIds = [
      ['tab', 'H\t1', 'id holds the control character U+0009'],
      ['line break', 'H\n2', 'id holds the control character U+000A'],
      ['carriage return', 'H\r3', 'id holds the control character U+000D'],
      ['lone surrogate', 'H\ud8004', 'id holds half of a surrogate pair (U+D800): it is not valid Unicode text'],
      ['other half', '\udc00', 'id holds half of a surrogate pair (U+DC00): it is not valid Unicode text'],
    ] as const;
    const taken = { id: 'H 5/ü', name: 'Hotel Five' };
    const lines = [
      ...refusedIds.map(([, id], i) => JSON.stringify({ id, name: `Hotel ${i}` })),
      JSON.stringify(taken),
      JSON.stringify({ id: 'H6', name: 'Hotel \ud800Six' }),
    ];
    const uploaded = await upload(caller, 'hotels.jsonl', lines.join('\n'));
    assert.equal(uploaded.status, 201, uploaded.text);
    assert.equal(uploaded.body.hotelCount, 1);
    assert.deepEqual(uploaded.body.rejectedSample, [
      ...refusedIds.map(([, , reason], i) => ({ line: i + 1, reason })),
      { line: 7, reason: 'name holds half of a surrogate pair (U+D800): it is not valid Unicode text' },
    ]);

    // Find-match reads its hotels as a JSON Lines inventory: the same ids are REJECTED, and not charged.
    await seedReference();
    const found = await api.request('POST', '/api/v1/mapping/match', {
      as: caller,
      json: { hotels: [...refusedIds.map(([, id]) => ({ id, name: 'Hotel' })), taken] },
    });
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(
      found.body.results.slice(0, refusedIds.length).map((result: { status: string; reason: string }) => [result.status, result.reason]),
      refusedIds.map(([, , reason]) => ['REJECTED', reason]),
    );
    assert.equal(found.body.charged, 50, 'one hotel mapped: the least a request is charged');
    // And the routes that look an id up refuse the same ids (a JSON body can carry each), and take the rest.
    const decide = (partnerHotelId: string) =>
      api.request('POST', '/api/v1/mapping-book/reviews', { as: caller, json: { partnerHotelId, decision: 'NO_MATCH' } });
    for (const [, id] of refusedIds) {
      const lookup = await decide(id);
      assert.equal(lookup.status, 400, `${JSON.stringify(id)}: ${lookup.text}`);
      assert.match(lookup.body.message, /^partnerHotelId: must (not contain control characters|be valid Unicode text)/);
    }
    assert.equal((await decide(taken.id)).status, 404);
  });
});
