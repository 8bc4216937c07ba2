/**
 * Input that could be read two ways (issue 33, item 5): a JSON key written twice, a query
 * parameter, form field or multipart field sent twice, a header the API reads once sent twice, two
 * credentials at once. Each answers 400 naming what was doubled, and changes nothing.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from '@jest/globals';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { startTestApi } from '../support/test-api';

// A webhook on loopback is created without a DNS look-up.
const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
const caller = await api.newOrganization();
const { port } = new URL(api.baseUrl);

/** One request with headers exactly as given: an array value is sent as that many header lines. */
function send(
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
  body?: string | Buffer,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const json = { 'content-type': 'application/json' };

function assertRefused(answer: { status: number; body: any }, message: RegExp): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body), ['error', 'message']);
  assert.equal(answer.body.error, 'Bad Request');
  assert.match(answer.body.message, message);
}

const keyCount = async () => (await api.request('GET', '/api/v1/api-keys', { as: caller })).body.total as number;

describe('a JSON key written twice', () => {
  it('is refused with the key named, at the top level and nested, escaped or not, and nothing is created', async () => {
    const before = await keyCount();
    for (const [body, field] of [
      ['{"name":"first","name":"second"}', 'name'],
      ['{"name":"first","n\\u0061me":"second"}', 'name'],
      ['{ "name" : "a" , "name" : "a" }', 'name'],
    ] as const) {
      assertRefused(await send('POST', '/api/v1/api-keys', { ...json, ...caller.headers }, body), new RegExp(`"${field}" more than once`));
    }
    assert.equal(await keyCount(), before);
    const nested = '{"webhookUrl":"http://127.0.0.1:9/x","additionalHeaders":{"X-Env":"a","X-Env":"b"}}';
    assertRefused(
      await send('POST', '/api/v1/export-webhooks', { ...json, ...caller.headers }, nested),
      /"additionalHeaders\.X-Env" more than once/,
    );
    assert.equal((await api.request('GET', '/api/v1/export-webhooks', { as: caller })).body.total, 0);
  });

  it('leaves the same name in different objects alone', async () => {
    const body = '{"name":"Hooks","webhookUrl":"http://127.0.0.1:9/x","additionalHeaders":{"name":"x","X-Env":"a"}}';
    const answer = await send('POST', '/api/v1/export-webhooks', { ...json, ...caller.headers }, body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.additionalHeaders, { name: 'x', 'X-Env': 'a' });
  });
});

describe('a query parameter sent twice', () => {
  it('is refused with the parameter named', async () => {
    assertRefused(await send('GET', '/api/v1/mapping?limit=5&limit=50', caller.headers), /query parameter "limit".*more than once/);
    assertRefused(await send('GET', '/api/v1/reference/search?q=a&q=b', caller.headers), /query parameter "q".*more than once/);
  });
});

describe('a form field sent twice', () => {
  const token = (headers: Record<string, string>, form: string) =>
    send('POST', '/api/v1/auth/token', { 'content-type': 'application/x-www-form-urlencoded', ...headers }, form);

  it('refuses two client_secrets rather than issue a token for either', async () => {
    const other = await api.newOrganization();
    const form = `grant_type=client_credentials&client_secret=${caller.apiKey}&client_secret=${other.apiKey}`;
    assertRefused(await token({}, form), /"client_secret" more than once/);
    assertRefused(
      await token({}, `grant_type=client_credentials&grant_type=client_credentials&client_secret=${caller.apiKey}`),
      /"grant_type" more than once/,
    );
  });

  it('refuses HTTP Basic and a client_secret in the form together', async () => {
    const [prefix] = /^hmk_[0-9a-f]{12}/.exec(caller.apiKey)!;
    const basic = `Basic ${Buffer.from(`${prefix}:${caller.apiKey}`).toString('base64')}`;
    const other = await api.newOrganization();
    assertRefused(await token({ authorization: basic }, `grant_type=client_credentials&client_secret=${other.apiKey}`), /one way/);
    assert.equal((await token({ authorization: basic }, 'grant_type=client_credentials')).status, 200);
  });
});

describe('a multipart field sent twice', () => {
  it('is refused with the field named, and nothing is stored', async () => {
    const boundary = 'b0undary';
    const part = (name: string, value: string, fileName?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n\r\n${value}\r\n`;
    const body = `${part('name', 'First')}${part('name', 'Second')}${part('file', 'id,name\n1,Hotel A\n', 'hotels.csv')}--${boundary}--\r\n`;
    const answer = await send(
      'POST',
      '/api/v1/partner-inventories',
      { ...caller.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    );
    assertRefused(answer, /"name" more than once/);
    assert.equal((await api.request('GET', '/api/v1/partner-inventories', { as: caller })).body.inventories.length, 0);
  });
});

describe('credentials that contradict each other', () => {
  it('refuses X-API-Key with Authorization, on required and optional routes', async () => {
    const token = (
      await api.request('POST', '/api/v1/auth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_secret=${caller.apiKey}`,
      })
    ).body.access_token as string;
    const both = { 'x-api-key': caller.apiKey, authorization: `Bearer ${token}` };
    assertRefused(await send('GET', '/api/v1/api-keys', both), /X-API-Key or Authorization/);
    assertRefused(await send('GET', '/api/v1/billing/plans', both), /X-API-Key or Authorization/);
  });

  it('refuses a credential header sent twice, even with the same value', async () => {
    const other = await api.newOrganization();
    assertRefused(
      await send('GET', '/api/v1/api-keys', { 'x-api-key': [caller.apiKey, other.apiKey] }),
      /X-API-Key header.*more than once/i,
    );
    assertRefused(
      await send('GET', '/api/v1/api-keys', { 'x-api-key': [caller.apiKey, caller.apiKey] }),
      /X-API-Key header.*more than once/i,
    );
    assertRefused(
      await send('GET', '/api/v1/api-keys', { authorization: ['Bearer a', 'Bearer b'] }),
      /Authorization header.*more than once/i,
    );
  });

  it('refuses two Content-Types', async () => {
    const answer = await send(
      'POST',
      '/api/v1/api-keys',
      { ...caller.headers, 'content-type': ['application/json', 'text/plain'] },
      '{"name":"x"}',
    );
    assertRefused(answer, /Content-Type header.*more than once/i);
  });
});
