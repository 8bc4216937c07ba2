/**
 * Bad values answer in the project's words through HTTP (issue 33, item 7): the field named, what
 * it takes, and never valibot's own phrasing. test/unit/platform/validation-messages.test.ts walks
 * every route's schemas; this sends a few through the whole pipeline.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();
const caller = await api.newOrganization();

describe('validation messages over HTTP', () => {
  it('name the field and what it takes', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/v1/api-keys', { name: null }, 'name: must be a string, not null'],
      ['POST', '/api/v1/api-keys', { name: 42 }, 'name: must be a string, not a number'],
      ['PUT', '/api/v1/export-format', { format: 'csv', includeFields: 'status' }, 'includeFields: must be an array, not a string'],
      ['PUT', '/api/v1/export-format', { format: 'csv', delimiter: null }, 'delimiter: must be a string, not null'],
      [
        'POST',
        '/api/v1/webhook-subscriptions',
        { url: 'https://hooks.example.com/x', events: 'MAPPING_COMPLETED' },
        'events: must be an array, not a string',
      ],
      ['POST', '/api/v1/mapping', { partnerInventoryId: ['x'] }, 'partnerInventoryId: must be a string, not an array'],
    ];
    for (const [method, path, json, message] of cases) {
      const answer = await api.request(method, path, { as: caller, json });
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      assert.equal(answer.body.message, message);
    }
  });

  it('refuse a form field of the wrong kind in the same words', async () => {
    const answer = await api.request('POST', '/api/v1/auth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, 'grant_type: must be "client_credentials"');
  });
});
