/**
 * The local runtime answers as API Gateway does where a caller can tell: its own 404 and 405 carry
 * an X-Request-Id, an encoded dot segment is a literal segment (never resolved into another
 * route), a body that trickles in is cut off, an answer of a kilobyte or more is compressed for a
 * client that accepts it, and a DynamoDB that is gone answers 503 with Retry-After, not 500.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import { MINIMUM_COMPRESSION_BYTES } from '../../shared/platform/http/route';
import { afterAll, describe, it } from '@jest/globals';
import { freePort } from '../../infra/local/stand-ins';
import { createLocalApi } from '../../infra/local/server';
import { createRuntime } from '../../shared/platform/runtime';
import { startTestApi, testConfig } from '../support/test-api';

const api = await startTestApi();
const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A request with its path exactly as written: fetch would resolve dot segments itself. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { path }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A GET with exactly these headers (fetch would add its own Accept-Encoding), its body as sent. */
function rawExchange(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the local runtime as API Gateway', () => {
  it('compresses an answer of a kilobyte or more in the coding the client prefers of gzip and deflate, and nothing else', async () => {
    const document = '/api/v1/openapi.json';
    const plain = await rawExchange(api.baseUrl, document, {});
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined, 'a client that names no coding gets the body as it is');
    assert.ok(plain.body.length > 100 * MINIMUM_COMPRESSION_BYTES);
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'gzip'],
      ['deflate', 'deflate'],
      ['gzip;q=0.5, deflate', 'deflate'],
      ['gzip;q=0', undefined],
      ['br', undefined],
      ['identity', undefined],
    ];
    for (const [accepted, expected] of cases) {
      const answer = await rawExchange(api.baseUrl, document, { 'accept-encoding': accepted });
      assert.equal(answer.headers['content-encoding'], expected, accepted);
      const body = expected === 'gzip' ? gunzipSync(answer.body) : expected === 'deflate' ? inflateSync(answer.body) : answer.body;
      assert.deepEqual(body, plain.body, accepted);
      if (expected)
        assert.ok(answer.body.length < plain.body.length / 5, `${accepted}: ${answer.body.length} of ${plain.body.length} bytes`);
    }
    // Below a kilobyte, as it is.
    const small = await rawExchange(api.baseUrl, '/api/v1/suppliers/my-suppliers', { 'accept-encoding': 'gzip' });
    assert.equal(small.status, 401);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.deepEqual(Object.keys(JSON.parse(small.body.toString('utf8'))).sort(), ['error', 'message']);
  });

  it('answers its own 404 and 405 with an X-Request-Id, a new one each time', async () => {
    const unknown = await api.request('GET', '/api/v1/nowhere');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('x-request-id') ?? '', UUID);
    const other = await api.request('DELETE', '/api/v1/suppliers');
    assert.equal(other.status, 405);
    assert.match(other.headers.get('x-request-id') ?? '', UUID);
    assert.notEqual(other.headers.get('x-request-id'), unknown.headers.get('x-request-id'));
  });

  it('takes an encoded dot segment literally: it matches no other route', async () => {
    // Resolved, these would be GET /api/v1/suppliers, which answers 200 to anyone.
    for (const path of [
      '/api/v1/billing/%2E%2E/suppliers',
      '/api/v1/billing/%2e%2E/suppliers',
      '/api/v1/billing/.%2E/suppliers',
      '/api/v1/billing/../suppliers',
    ]) {
      const answer = await rawGet(api.baseUrl, path);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message']);
    }
    // As a path parameter it is the parameter's value: `..`, refused like any other asset name it does not know.
    const parameter = await rawGet(api.baseUrl, '/docs/%2E%2E');
    assert.equal(parameter.status, 404);
  });

  it('cuts off a body that trickles in: 408 and the connection closed', async () => {
    const server = createLocalApi({ runtime: api.runtime, requestTimeoutMs: 500 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.write(
      'POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=',
    );
    const tick = setInterval(() => socket.write('c'), 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(tick);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
      error: 'Request Timeout',
      message: 'The request did not arrive within 0.5 s.',
    });
  });

  it('answers 503 with Retry-After when DynamoDB cannot be reached', async () => {
    const gone = createRuntime({ ...testConfig(), dynamoDbEndpoint: `http://127.0.0.1:${await freePort()}` });
    const server = createLocalApi({ runtime: gone });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/suppliers`);
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '5');
    assert.match(answer.headers.get('x-request-id') ?? '', UUID);
    assert.deepEqual(JSON.parse(await answer.text()), {
      error: 'Service Unavailable',
      message: 'A service the API depends on is unavailable. Retry in a few seconds.',
    });
  });
});
