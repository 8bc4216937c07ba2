import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DEFAULT_MAX_BODY_BYTES, GATEWAY_MAX_BODY_BYTES } from '../../shared/platform/http/route';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();

function assertErrorBody(body: unknown, error: string) {
  assert.deepEqual(Object.keys(body as object).sort(), ['error', 'message']);
  assert.equal((body as { error: string }).error, error);
  assert.ok((body as { message: string }).message.length > 0);
}

describe('every error answers {error, message}', () => {
  it('404 for an unknown route', async () => {
    for (const path of ['/api/v1/nothing', '/api/v2/suppliers', '/']) {
      const response = await api.request('GET', path);
      assert.equal(response.status, 404, path);
      assertErrorBody(response.body, 'Not Found');
    }
  });

  it('405 with an Allow header for a known path and another method', async () => {
    const response = await api.request('PATCH', '/api/v1/export-format');
    assert.equal(response.status, 405);
    assertErrorBody(response.body, 'Method Not Allowed');
    assert.deepEqual(response.headers.get('allow')?.split(', ').sort(), ['GET', 'PUT']);
  });

  it('413 for a JSON body over the limit, and over the gateway limit', async () => {
    const caller = await api.newOrganization();
    const padding = 'x'.repeat(DEFAULT_MAX_BODY_BYTES);
    const tooLarge = await api.request('PUT', '/api/v1/export-format', { as: caller, json: { format: 'csv', padding } });
    assert.equal(tooLarge.status, 413);
    assertErrorBody(tooLarge.body, 'Payload Too Large');
    const overGateway = await api.request('PUT', '/api/v1/export-format', {
      as: caller,
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(GATEWAY_MAX_BODY_BYTES + 1),
    });
    assert.equal(overGateway.status, 413);
    assertErrorBody(overGateway.body, 'Payload Too Large');
    assert.equal((await api.request('GET', '/api/v1/export-format', { as: caller })).status, 404);
  });

  it('415 for a wrong content type, 400 for malformed JSON or a missing body', async () => {
    const caller = await api.newOrganization();
    const wrongType = await api.request('POST', '/api/v1/api-keys', {
      as: caller,
      headers: { 'content-type': 'application/xml' },
      body: '<name>x</name>',
    });
    assert.equal(wrongType.status, 415);
    assertErrorBody(wrongType.body, 'Unsupported Media Type');
    const malformed = await api.request('POST', '/api/v1/api-keys', {
      as: caller,
      headers: { 'content-type': 'application/json' },
      body: '{name: x}',
    });
    assert.equal(malformed.status, 400);
    assertErrorBody(malformed.body, 'Bad Request');
    const missing = await api.request('POST', '/api/v1/api-keys', { as: caller });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /body is required/);
    assert.equal((await api.request('GET', '/api/v1/api-keys', { as: caller })).body.total, 1);
  });

  it('500 without internals for an unexpected failure', async () => {
    // An API whose table does not exist: every storage call fails unexpectedly.
    const broken = await startTestApi({ provision: false });
    const response = await broken.request('GET', '/api/v1/suppliers');
    assert.equal(response.status, 500);
    assertErrorBody(response.body, 'Internal Server Error');
    assert.match(response.body.message, /Reference: /);
    assert.doesNotMatch(response.text, /ResourceNotFound|DynamoDB|stack|at /i);
  });
});
