/**
 * The webhook sender against real HTTP receivers on 127.0.0.1 (loopback allowed, as in local
 * development): outcomes, the response-body cap, no redirects, the timeout, and the SSRF guard.
 */
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, it } from '@jest/globals';
import { HttpWebhookSender } from '../../../shared/webhooks/sender';

interface Received {
  method: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
}

const servers: http.Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver recording each request, answering with `answer` (or never, if it returns without ending). */
async function receiver(answer: (response: http.ServerResponse) => void): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const sender = new HttpWebhookSender({ policy: { allowLoopback: true }, timeoutMs: 2_000 });
const request = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"type":"mapping.completed"}' });

describe('HttpWebhookSender', () => {
  it('succeeds on 2xx, with the status code and body', async () => {
    const target = await receiver((response) => response.writeHead(200).end('thanks'));
    const outcome = await sender.send(request(target.url));
    assert.equal(outcome.succeeded, true);
    assert.equal(outcome.statusCode, 200);
    assert.equal(outcome.responseBody, 'thanks');
    assert.equal(outcome.error, undefined);
    assert.ok(Number.isInteger(outcome.durationMs) && outcome.durationMs >= 0);
  });

  it('fails on 500, keeping the status code and body', async () => {
    const target = await receiver((response) => response.writeHead(500).end('boom'));
    const outcome = await sender.send(request(target.url));
    assert.deepEqual({ ...outcome, durationMs: 0 }, { succeeded: false, statusCode: 500, responseBody: 'boom', durationMs: 0 });
  });

  it('keeps at most 1,024 bytes of the response body', async () => {
    const target = await receiver((response) => response.writeHead(200).end('é'.repeat(1_000)));
    const outcome = await sender.send(request(target.url));
    assert.equal(outcome.succeeded, true);
    assert.ok(Buffer.byteLength(outcome.responseBody!) <= 1024, String(Buffer.byteLength(outcome.responseBody!)));
    assert.equal(outcome.responseBody, 'é'.repeat(512));
  });

  it('never follows a redirect', async () => {
    const other = await receiver((response) => response.writeHead(200).end());
    const target = await receiver((response) => response.writeHead(302, { location: other.url }).end());
    const outcome = await sender.send(request(target.url));
    assert.equal(outcome.succeeded, false);
    assert.equal(outcome.statusCode, 302);
    assert.equal(target.received.length, 1);
    assert.equal(other.received.length, 0);
  });

  it('times out on a receiver that never answers', async () => {
    const target = await receiver(() => {});
    const outcome = await new HttpWebhookSender({ policy: { allowLoopback: true }, timeoutMs: 200 }).send(request(target.url));
    assert.equal(outcome.succeeded, false);
    assert.equal(outcome.statusCode, undefined);
    assert.match(outcome.error!, /timed out after 0\.2 s/);
    assert.ok(outcome.durationMs >= 190, String(outcome.durationMs));
  });

  it('turns a closed port into an error, without throwing', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const outcome = await sender.send(request(`http://127.0.0.1:${port}/hook`));
    assert.equal(outcome.succeeded, false);
    assert.match(outcome.error!, /ECONNREFUSED/);
  });

  it('sends exactly the body and headers, with Content-Length and without Expect', async () => {
    const target = await receiver((response) => response.writeHead(204).end());
    const body = JSON.stringify({ type: 'mapping.completed', hotel: 'Hôtel Ünïcode ✓' });
    const outcome = await sender.send({
      url: `${target.url}?partner=p1`,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc=', Expect: '100-continue' },
      body,
    });
    assert.equal(outcome.succeeded, true);
    assert.equal(outcome.statusCode, 204);
    const [seen] = target.received;
    assert.equal(seen?.method, 'POST');
    assert.equal(seen?.body, body);
    assert.equal(seen?.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(seen?.headers['content-type'], 'application/json');
    assert.equal(seen?.headers['webhook-id'], 'msg_1');
    assert.equal(seen?.headers['webhook-signature'], 'v1,abc=');
    assert.equal(seen?.headers.expect, undefined);
  });

  it('refuses a loopback URL without loopback allowed, sending nothing', async () => {
    const target = await receiver((response) => response.writeHead(200).end());
    const outcome = await new HttpWebhookSender({ policy: { allowLoopback: false } }).send(request(target.url));
    assert.equal(outcome.succeeded, false);
    assert.match(outcome.error!, /https/);
    assert.equal(target.received.length, 0);
  });

  it('refuses a name the lookup maps to a private address, without connecting', async () => {
    const target = await receiver((response) => response.writeHead(200).end());
    const rebound = ((_hostname: string, _options: dns.LookupOptions, callback: (error: null, addresses: dns.LookupAddress[]) => void) =>
      callback(null, [{ address: '10.0.0.1', family: 4 }])) as unknown as typeof dns.lookup;
    const guarded = new HttpWebhookSender({ policy: { allowLoopback: true }, timeoutMs: 1_000, lookup: rebound });
    const outcome = await guarded.send(request(target.url.replace('127.0.0.1', 'localhost')));
    assert.equal(outcome.succeeded, false);
    assert.equal(outcome.error, 'the host localhost resolves to 10.0.0.1, a private address');
    assert.equal(target.received.length, 0);
  });
});
