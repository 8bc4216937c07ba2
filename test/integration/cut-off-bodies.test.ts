/**
 * Request bodies that end early or arrive slowly, on every route that takes a body: a body cut
 * off inside a multipart file part or a JSON value is a 4xx `{error, message}` that changes
 * nothing; a client that hangs up mid-body or dribbles its body leaves the API answering.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { routeList } from '../../shared/routes';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();
const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
const admin = await api.newOrganization({ role: 'admin' });
const { port } = new URL(api.baseUrl);

const BOUNDARY = 'cut-off-boundary';
const CSV =
  'id,name,address,city,country,lat,lon\n' +
  Array.from({ length: 50 }, (_, index) => `P-${index},Hotel ${index},${index} Main St,Paris,fr,48.85,2.35\n`).join('');

function multipartBody(field: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nCut off\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="hotels.csv"\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n` +
      `--${BOUNDARY}--\r\n`,
  );
}

function samplePath(route: RouteDefinition): string {
  return route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
}

function callerFor(route: RouteDefinition): Caller | undefined {
  if (route.auth === 'none') return undefined;
  return route.auth === 'admin' ? admin : partner;
}

/** The route's body as a client would send it, whole. */
function wholeBody(route: RouteDefinition): { contentType: string; bytes: Buffer } {
  const body = route.body!;
  if (body.kind === 'multipart') return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, bytes: multipartBody(body.file.field) };
  if (body.kind === 'form')
    return { contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from('quantity=10&name=%C3%A9t%C3%A9') };
  return {
    contentType: 'application/json',
    bytes: Buffer.from(JSON.stringify({ name: 'Cut off', url: 'https://example.com/hook', values: [1, 2, 3] })),
  };
}

/** Sends raw bytes on a socket and reads the whole answer (or undefined if the server said nothing). */
function rawExchange(write: (socket: ReturnType<typeof connect>) => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(answer) : reject(error)));
    socket.on('connect', () => void write(socket).catch(reject));
  });
}

const withBody = routeList.filter((route) => route.body !== undefined);

describe('a body that ends early', () => {
  it.each(withBody.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: cut in half is a 4xx {error, message}',
    async (_, route) => {
      const { contentType, bytes } = wholeBody(route);
      const answer = await api.request(route.method, samplePath(route), {
        as: callerFor(route),
        headers: { 'content-type': contentType },
        body: bytes.subarray(0, Math.floor(bytes.length / 2)),
      });
      assert.ok(answer.status >= 400 && answer.status < 500, `${answer.status}: ${answer.text}`);
      assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message']);
    },
  );

  it('a multipart file part cut off before its boundary is a 400 naming the cause, and creates nothing', async () => {
    const bytes = multipartBody('file');
    const answer = await api.request('POST', '/api/v1/partner-inventories', {
      as: partner,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: bytes.subarray(0, bytes.length - 200),
    });
    assert.equal(answer.status, 400, answer.text);
    assert.match(answer.body.message, /multipart body ends before its closing boundary/);
    const listed = await api.request('GET', '/api/v1/partner-inventories', { as: partner });
    assert.equal(listed.body.inventories.length, 0);
  });

  it('a file that is itself cut off (a workbook, a gzip stream) is a 400 on both upload routes', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Hotels');
    for (const line of CSV.trim().split('\n')) sheet.addRow(line.split(','));
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const gzip = gzipSync(Buffer.from(CSV));
    const files = [
      { name: 'hotels.xlsx', data: xlsx.subarray(0, Math.floor(xlsx.length / 2)) },
      { name: 'hotels.xlsx', data: xlsx.subarray(0, xlsx.length - 30) },
      { name: 'hotels.csv.gz', data: gzip.subarray(0, Math.floor(gzip.length / 2)) },
    ];
    for (const [path, fields] of [
      ['/api/v1/partner-inventories', { name: 'Cut file' }],
      ['/api/v1/suppliers/request', { supplierName: 'Cut file' }],
    ] as const) {
      for (const file of files) {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('file', new Blob([file.data]), file.name);
        const answer = await api.request('POST', path, { as: partner, body: form });
        assert.ok(
          answer.status >= 400 && answer.status < 500,
          `${path} ${file.name} (${file.data.length} bytes): ${answer.status} ${answer.text}`,
        );
        assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message']);
      }
    }
    const listed = await api.request('GET', '/api/v1/partner-inventories', { as: partner });
    assert.equal(listed.body.inventories.length, 0);
  });

  it('a client that hangs up mid-body leaves the API answering', async () => {
    const bytes = multipartBody('file');
    await rawExchange(async (socket) => {
      socket.write(
        `POST /api/v1/partner-inventories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${partner.apiKey}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      );
      socket.write(bytes.subarray(0, 300));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
    });
    const after = await api.request('GET', '/api/v1/partner-inventories', { as: partner });
    assert.equal(after.status, 200);
  });

  it('a body declared longer than it is, then ended, is refused and the API goes on', async () => {
    const answer = await rawExchange(async (socket) => {
      socket.write(
        `POST /api/v1/webhook-subscriptions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${partner.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"url": "https://exa`,
      );
      socket.end();
    });
    assert.match(answer, /^HTTP\/1\.1 400 [^]*ended before its declared length/);
    const after = await api.request('GET', '/api/v1/webhook-subscriptions', { as: partner });
    assert.equal(after.status, 200);
    assert.equal(after.body.subscriptions.length, 0);
  });
});

describe('a body that arrives slowly', () => {
  it('is read whole and answered as if sent at once', async () => {
    const bytes = multipartBody('file');
    const answer = await rawExchange(async (socket) => {
      socket.write(
        `POST /api/v1/partner-inventories HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${partner.apiKey}\r\nConnection: close\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      );
      const pieces = 12;
      for (let index = 0; index < pieces; index++) {
        socket.write(bytes.subarray(Math.floor((index * bytes.length) / pieces), Math.floor(((index + 1) * bytes.length) / pieces)));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    assert.match(answer, /^HTTP\/1\.1 201 /);
  });
});
