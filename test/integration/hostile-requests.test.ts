/**
 * Requests a hostile caller sends to the HTTP layer itself (issue 13): malformed percent-encoding,
 * oversized request lines and headers, and forged Host / X-Forwarded-Proto headers. Each answers
 * `{error, message}` or ignores the forgery; none reaches a 500.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, it, jest } from '@jest/globals';
import { LOCAL_PRICE_IDS } from '../../shared/billing';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();
const caller = await api.newOrganization();
const { port } = new URL(api.baseUrl);

/** One raw HTTP exchange, exactly as written (no client fixes anything up). */
function raw(text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

/** A request with headers fetch would not let us forge (Host). */
function forged(
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, ...(payload && { 'content-type': 'application/json' }) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            text,
            body: /json/.test(String(response.headers['content-type'])) ? JSON.parse(text) : text,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

describe('malformed percent-encoding in a path', () => {
  it('answers 400 {error, message}, with or without a credential, and logs no stack', async () => {
    const stderr = jest.spyOn(process.stderr, 'write');
    try {
      for (const path of ['/api/v1/reference/%E0%A4%A', '/api/v1/reference/duplicates/%ZZ', '/api/v1/mapping/%C0%AF']) {
        for (const as of [caller, undefined]) {
          const answer = await api.request('GET', path, { as });
          assert.equal(answer.status, 400, path);
          assert.equal(answer.body.error, 'Bad Request');
          assert.match(answer.body.message, /percent-encoding/);
        }
      }
      assert.ok(!stderr.mock.calls.some(([text]) => String(text).includes('URIError')), 'no stack trace');
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('oversized request line or headers', () => {
  it('answers 431 with {error, message}', async () => {
    for (const request of [
      `GET /api/v1/suppliers?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /api/v1/suppliers HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    ]) {
      const answer = await raw(request);
      assert.equal(answer.status, 431);
      assert.match(answer.headers, /content-type: application\/json/i);
      assert.deepEqual(Object.keys(JSON.parse(answer.body)), ['error', 'message']);
      assert.equal(JSON.parse(answer.body).error, 'Request Header Fields Too Large');
    }
  });

  it('answers 400 with {error, message} to a request that is not HTTP', async () => {
    const answer = await raw('HELLO\r\n\r\n');
    assert.equal(answer.status, 400);
    assert.equal(JSON.parse(answer.body).error, 'Bad Request');
  });
});

describe('forged Host and X-Forwarded-Proto', () => {
  const forgery = { host: 'evil.example', 'x-forwarded-proto': 'javascript', 'x-api-key': caller.apiKey };

  it('never reach the hosted-page URLs', async () => {
    const checkout = await forged('POST', '/api/v1/billing/checkout', forgery, {
      priceId: LOCAL_PRICE_IDS.SUBSCRIPTION,
      successUrl: 'https://partner.test/done',
      cancelUrl: 'https://partner.test/cancel',
    });
    assert.equal(checkout.status, 200, checkout.text);
    assert.ok(checkout.body.checkoutUrl.startsWith(`${api.baseUrl}/`), checkout.body.checkoutUrl);
    const credits = await forged('POST', '/api/v1/billing/credits/purchase', forgery, {
      credits: 5_000_000,
      successUrl: 'https://partner.test/done',
      cancelUrl: 'https://partner.test/cancel',
    });
    if (credits.status === 200) assert.ok(credits.body.checkoutUrl.startsWith(`${api.baseUrl}/`), credits.body.checkoutUrl);
  });

  it("never receive the local provider's signed completion event", async () => {
    const caller = await api.newOrganization();
    const stolen: string[] = [];
    const thief = createServer((request, response) => {
      stolen.push(request.url ?? '');
      response.end('thanks');
    });
    await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', resolve));
    try {
      const checkout = await api.request('POST', '/api/v1/billing/checkout', {
        as: caller,
        json: { priceId: LOCAL_PRICE_IDS.SUBSCRIPTION, successUrl: 'https://partner.test/done', cancelUrl: 'https://partner.test/cancel' },
      });
      const completion = new URL(`${checkout.body.checkoutUrl}/complete`);
      const paid = await forged('POST', `${completion.pathname}${completion.search}`, {
        host: `127.0.0.1:${(thief.address() as AddressInfo).port}`,
      });
      assert.ok(paid.status < 400, paid.text);
      assert.deepEqual(stolen, [], 'the event went to the API itself');
      const quota = await api.request('GET', '/api/v1/billing/quota/status', { as: caller });
      assert.equal(quota.body.planType, 'SUBSCRIPTION');
    } finally {
      thief.close();
    }
  });

  it('never reach the docs page, the console or the OpenAPI servers', async () => {
    const page = await forged('GET', '/docs', forgery);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('evil.example') && !page.text.includes('javascript:'), 'the page names only the API');
    // Paths only, under the API's own base path: a forged host has nothing to land in.
    assert.ok(page.text.includes('<base href="/">') && page.text.includes('src="docs/swagger-ui-bundle.js"'));
    const console = await forged('GET', '/console', forgery);
    assert.ok(
      !console.text.includes('evil.example') && console.text.includes('<base href="/">') && console.text.includes('src="console/app.js"'),
    );
    const document = await forged('GET', '/api/v1/openapi.json', forgery);
    assert.deepEqual(document.body.servers, [{ url: '/' }]);
  });
});
