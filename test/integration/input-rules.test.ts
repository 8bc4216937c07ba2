/**
 * The input rules every route shares (issue 13): stored text holds no control characters and is
 * valid UTF-8; ids are UUIDs in either case; integer query parameters take one form; form and
 * multipart bodies refuse unknown fields as JSON bodies do; bearer tokens carry a bounded lifetime.
 * Each refusal is 400 (401 for a token) `{error, message}` and changes nothing.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { SUPPLIER_CATALOGUE } from '../../infra/local/seed';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_LIFETIME_SECONDS } from '../../shared/api-keys/bearer-tokens';
import { startTestApi, type ApiResponse, type Caller } from '../support/test-api';

const api = await startTestApi();
const activeSupplier = SUPPLIER_CATALOGUE.find((supplier) => supplier.isActive)!;
const CSV = 'id,name,city,country\nH1,Hotel Alpha,Paris,France\n';

function assertBadRequest(response: ApiResponse, message: RegExp, what: string) {
  assert.equal(response.status, 400, `${what} answered ${response.status}: ${response.text}`);
  assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
  assert.equal(response.body.error, 'Bad Request');
  assert.match(response.body.message, message, what);
}

const putExportFormat = (as: Caller, body: string | Buffer) =>
  api.request('PUT', '/api/v1/export-format', { as, headers: { 'content-type': 'application/json' }, body });

function supplierRequestForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([CSV], { type: 'text/csv' }), 'hotels.csv');
  return form;
}

describe('stored text', () => {
  it('refuses control characters, bidirectional overrides and lone surrogates in a key name, storing nothing', async () => {
    const caller = await api.newOrganization();
    for (const name of [
      'nul\u0000name',
      '\u001b[31mred\u001b[0m',
      'bell\u0007',
      'line\nbreak',
      'del\u007f',
      'tab\there',
      'half \ud83d pair',
      'c1\u0085next',
      'key \u202egnp.exe',
      'isolate\u2066x\u2069',
    ]) {
      const response = await api.request('POST', '/api/v1/api-keys', { as: caller, json: { name } });
      assertBadRequest(response, /^name: must /, JSON.stringify(name));
    }
    assert.equal((await api.request('GET', '/api/v1/api-keys', { as: caller })).body.total, 1);
    const accepted = await api.request('POST', '/api/v1/api-keys', { as: caller, json: { name: 'Café 🏨 – CI' } });
    assert.equal(accepted.status, 201);
    assert.equal(accepted.body.name, 'Café 🏨 – CI');
  });

  it('refuses a control-character delimiter, allowing tab', async () => {
    const caller = await api.newOrganization();
    for (const delimiter of ['\u0000', '\u001b', '\u007f']) {
      const response = await putExportFormat(caller, JSON.stringify({ format: 'csv', delimiter }));
      assertBadRequest(response, /^delimiter: must not contain control characters/, JSON.stringify(delimiter));
    }
    assert.equal((await api.request('GET', '/api/v1/export-format', { as: caller })).status, 404);
    const tab = await putExportFormat(caller, JSON.stringify({ format: 'csv', delimiter: '\t' }));
    assert.equal(tab.status, 200);
    assert.equal(tab.body.delimiter, '\t');
  });

  it('refuses a JSON body that is not valid UTF-8 (a raw 0xFF byte), storing nothing', async () => {
    const caller = await api.newOrganization();
    const body = Buffer.concat([Buffer.from('{"format":"csv","delimiter":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    assertBadRequest(await putExportFormat(caller, body), /not valid UTF-8/, 'a raw 0xFF byte');
    assert.equal((await api.request('GET', '/api/v1/export-format', { as: caller })).status, 404);
  });

  it('refuses a compressed body as such (415), storing nothing', async () => {
    const caller = await api.newOrganization();
    const body = gzipSync(JSON.stringify({ format: 'csv', delimiter: ';' }));
    const refused = await api.request('PUT', '/api/v1/export-format', {
      as: caller,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    });
    assert.equal(refused.status, 415, refused.text);
    assert.deepEqual(refused.body, {
      error: 'Unsupported Media Type',
      message: 'Content-Encoding gzip is not taken: send the body uncompressed.',
    });
    assert.equal((await api.request('GET', '/api/v1/export-format', { as: caller })).status, 404);
  });

  it('refuses control characters and invalid UTF-8 in multipart fields, storing nothing', async () => {
    const caller = await api.newOrganization();
    const controls = await api.request('POST', '/api/v1/suppliers/request', {
      as: caller,
      body: supplierRequestForm({ supplierName: 'Sun\u001b[2Jrise' }),
    });
    assertBadRequest(controls, /^supplierName: must not contain control characters/, 'an escape sequence');
    const boundary = 'input-rules-boundary';
    const invalidUtf8 = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="supplierName"\r\n\r\nSun`),
      Buffer.from([0xff]),
      Buffer.from(
        `rise\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hotels.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n${CSV}\r\n--${boundary}--\r\n`,
      ),
    ]);
    const invalid = await api.request('POST', '/api/v1/suppliers/request', {
      as: caller,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: invalidUtf8,
    });
    assertBadRequest(invalid, /supplierName.*not valid UTF-8/, 'a raw 0xFF byte');
    assert.equal((await api.request('GET', '/api/v1/suppliers/requests', { as: caller })).body.total, 0);
  });

  it("holds an uploaded file's name to the same rule, keeping a UTF-8 name as sent", async () => {
    const caller = await api.newOrganization();
    const send = (headers: Record<string, string>, body: FormData | Buffer) =>
      api.request('POST', '/api/v1/suppliers/request', { as: caller, headers, body });
    // Raw control characters in a part header are malformed; RFC 5987 percent-encoding gets them through.
    const boundary = 'input-rules-boundary';
    const encodedName = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="supplierName"\r\n\r\nSunrise Beds\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=utf-8''hotels%1B%5B31m.csv\r\n` +
        `Content-Type: text/csv\r\n\r\n${CSV}\r\n--${boundary}--\r\n`,
    );
    const refused = await send({ 'content-type': `multipart/form-data; boundary=${boundary}` }, encodedName);
    assertBadRequest(refused, /^file: its name must not contain control characters/, 'an escape sequence');
    assert.equal((await api.request('GET', '/api/v1/suppliers/requests', { as: caller })).body.total, 0);

    const form = new FormData();
    form.append('supplierName', 'Sunrise Beds');
    form.append('file', new Blob([CSV], { type: 'text/csv' }), 'Hôtels été.csv');
    const accepted = await send({}, form);
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.body.fileName, 'Hôtels été.csv');
  });
});

describe('ids', () => {
  it('are UUIDs in either case: an upper-case supplier id connects and disconnects the same supplier', async () => {
    const caller = await api.newOrganization();
    const connected = await api.request('POST', `/api/v1/suppliers/${activeSupplier.id.toUpperCase()}/connect`, { as: caller });
    assert.equal(connected.status, 201, connected.text);
    assert.equal(connected.body.supplierId, activeSupplier.id);
    const again = await api.request('POST', `/api/v1/suppliers/${activeSupplier.id}/connect`, { as: caller });
    assert.equal(again.status, 200, 'the same connection');
    const disconnected = await api.request('DELETE', `/api/v1/suppliers/${activeSupplier.id.toUpperCase()}/disconnect`, { as: caller });
    assert.equal(disconnected.status, 204);
  });
});

describe('form and multipart bodies', () => {
  it('refuse an unknown multipart field, as JSON bodies do, storing nothing', async () => {
    const caller = await api.newOrganization();
    const response = await api.request('POST', '/api/v1/suppliers/request', {
      as: caller,
      body: supplierRequestForm({ supplierName: 'Sunrise Beds', status: 'completed' }),
    });
    assertBadRequest(response, /^Unknown field "status" in the form data\.$/, 'status=completed');
    assert.equal((await api.request('GET', '/api/v1/suppliers/requests', { as: caller })).body.total, 0);
  });

  it('refuse a second file part under another name', async () => {
    const caller = await api.newOrganization();
    const form = supplierRequestForm({ supplierName: 'Sunrise Beds' });
    form.append('attachment', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
    const response = await api.request('POST', '/api/v1/suppliers/request', { as: caller, body: form });
    assertBadRequest(response, /^Unknown field "attachment" in the form data\.$/, 'attachment');
    assert.equal((await api.request('GET', '/api/v1/suppliers/requests', { as: caller })).body.total, 0);
  });

  it('refuse malformed percent-encoding in a form body', async () => {
    const caller = await api.newOrganization();
    const response = await api.request('POST', '/api/v1/auth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_secret=${caller.apiKey}%FF`,
    });
    assertBadRequest(response, /^The form body is not valid percent-encoded UTF-8\.$/, '%FF');
  });
});

describe('bearer tokens signed with the real key', () => {
  const signingKey = createPrivateKey(api.config.localTokenSigningKey!);
  const nowSeconds = () => Math.floor(api.clock.now().getTime() / 1000);

  async function forge(caller: Caller, times: { iat?: number; exp?: number }): Promise<string> {
    const token = new SignJWT({ key: caller.apiKey.split('_')[1], role: 'partner' })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setSubject(caller.organization.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE);
    if (times.iat !== undefined) token.setIssuedAt(times.iat);
    if (times.exp !== undefined) token.setExpirationTime(times.exp);
    return token.sign(signingKey);
  }

  const call = (token: string) => api.request('GET', '/api/v1/suppliers/my-suppliers', { headers: { authorization: `Bearer ${token}` } });

  it('are refused (401) without exp or iat, with a lifetime over an hour, or issued in the future', async () => {
    const caller = await api.newOrganization();
    const now = nowSeconds();
    const refused = {
      'no exp': { iat: now },
      'no iat': { exp: now + 600 },
      'a one-year lifetime': { iat: now, exp: now + 365 * 24 * 3600 },
      'a lifetime one second over an hour': { iat: now - 10, exp: now - 10 + TOKEN_LIFETIME_SECONDS + 1 },
      'iat five minutes ahead': { iat: now + 300, exp: now + 300 + 600 },
    };
    for (const [what, times] of Object.entries(refused)) {
      const response = await call(await forge(caller, times));
      assert.equal(response.status, 401, what);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
    }
  });

  it('are accepted with the lifetime the token endpoint issues, and a little clock skew', async () => {
    const caller = await api.newOrganization();
    const now = nowSeconds();
    assert.equal((await call(await forge(caller, { iat: now, exp: now + TOKEN_LIFETIME_SECONDS }))).status, 200);
    assert.equal((await call(await forge(caller, { iat: now + 30, exp: now + 30 + TOKEN_LIFETIME_SECONDS }))).status, 200);
  });
});

describe('nothing the caller sends is silently ignored', () => {
  it('refuses query parameters an operation does not take, on lists with a query and on routes without one', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    // Checked before anything is looked up: any subscription id will do.
    const subscription = { body: { id: randomUUID() } };
    for (const path of [
      `/api/v1/webhook-subscriptions/${subscription.body.id}/deliveries?statuss=SUCCEEDED`,
      '/api/v1/export-webhooks?activOnly=true',
      '/api/v1/api-keys?page=2',
      '/api/v1/billing/quota/status?verbose=1',
    ]) {
      assertBadRequest(
        await api.request('GET', path, { as: caller }),
        /^Unknown field "(statuss|activOnly|page|verbose)" in the query\.$/,
        path,
      );
    }
    // The reference page opens with whatever query a link adds.
    assert.equal((await api.request('GET', '/docs?utm_source=mail')).status, 200);
  });

  it('refuses a query that is not UTF-8 percent-encoding', async () => {
    const caller = await api.newOrganization();
    for (const path of ['/api/v1/reference/search?q=%FF%FE', '/api/v1/mapping?cursor=%C3']) {
      assertBadRequest(await api.request('GET', path, { as: caller }), /is not valid UTF-8 percent-encoding/, path);
    }
  });

  it('refuses a body on an operation that takes none (an empty JSON object aside), changing nothing', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const exportPath = `/api/v1/mapping/${randomUUID()}/export`;
    assertBadRequest(
      await api.request('POST', exportPath, { as: caller, json: { format: 'json' } }),
      /^This operation takes no request body/,
      'export',
    );
    assert.equal((await api.request('POST', exportPath, { as: caller })).status, 404);
    // Refused before anything is looked up; without a body, or with {}, the request goes on (to a 404 here).
    const rotate = `/api/v1/webhook-subscriptions/${randomUUID()}/rotate-secret`;
    assertBadRequest(
      await api.request('POST', rotate, { as: caller, json: { expireOldSecretNow: true } }),
      /^This operation takes no request body/,
      'rotate',
    );
    assert.equal((await api.request('POST', rotate, { as: caller, json: {} })).status, 404);
    assert.equal((await api.request('POST', rotate, { as: caller })).status, 404);
  });

  it('refuses additionalHeaders sent as an array', async () => {
    const caller = await api.newOrganization();
    const refused = await api.request('POST', '/api/v1/export-webhooks', {
      as: caller,
      json: { webhookUrl: 'http://127.0.0.1:9/legacy', additionalHeaders: ['X-Team: ops'] },
    });
    assertBadRequest(refused, /^additionalHeaders: must be an object of header name -> value/, 'array');
    assert.equal((await api.request('GET', '/api/v1/export-webhooks', { as: caller })).body.total, 0);
  });
});
