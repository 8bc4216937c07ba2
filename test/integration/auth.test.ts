import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { TOKEN_LIFETIME_SECONDS } from '../../shared/api-keys/bearer-tokens';
import { startTestApi, type Caller } from '../support/test-api';
import { apiKeyStoreOf, authenticatorOf, bearerTokensOf } from '../../shared/api-keys/services';
import { parseApiKey } from '../../shared/api-keys/credentials';

const api = await startTestApi();
const PROTECTED = '/api/v1/suppliers/my-suppliers';

function prefixOf(apiKey: string): string {
  return apiKey.split('_').slice(0, 2).join('_');
}

async function tokenFor(caller: Caller): Promise<string> {
  const response = await api.request('POST', '/api/v1/auth/token', {
    headers: {
      authorization: `Basic ${Buffer.from(`${prefixOf(caller.apiKey)}:${caller.apiKey}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  assert.equal(response.status, 200, response.text);
  return response.body.access_token;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('API keys', () => {
  it('authenticate with X-API-Key', async () => {
    const caller = await api.newOrganization();
    assert.equal((await api.request('GET', PROTECTED, { as: caller })).status, 200);
  });

  it('answer 401 with {error, message} when missing, malformed, unknown or wrong', async () => {
    const caller = await api.newOrganization();
    const wrongSecret = `${prefixOf(caller.apiKey)}_${'A'.repeat(43)}`;
    const unknownKey = `hmk_000000000000_${'A'.repeat(43)}`;
    const attempts: Record<string, string>[] = [{}, { 'x-api-key': 'nonsense' }, { 'x-api-key': wrongSecret }, { 'x-api-key': unknownKey }];
    for (const headers of attempts) {
      const response = await api.request('GET', PROTECTED, { headers });
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
      assert.equal(response.body.error, 'Unauthorized');
    }
  });

  it('are stored only as hashes and listed by prefix only', async () => {
    const caller = await api.newOrganization();
    const { status, body } = await api.request('GET', '/api/v1/api-keys', { as: caller });
    assert.equal(status, 200);
    assert.equal(body.total, 1);
    const [listed] = body.apiKeys;
    assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'id', 'name', 'prefix', 'role']);
    assert.equal(listed.prefix, prefixOf(caller.apiKey));
    // The secret is base64url and may hold "_" itself: parsed, not split.
    const { secret } = parseApiKey(caller.apiKey)!;
    assert.ok(!JSON.stringify(body).includes(secret));
    const stored = await apiKeyStoreOf(api.runtime).get(listed.id);
    assert.ok(stored);
    assert.ok(!JSON.stringify(stored).includes(secret), 'the secret is not stored');
    assert.match(stored.secretHash, /^[0-9a-f]{64}$/);
  });

  it('can be created (shown once, usable at once) and revoked (401 afterwards)', async () => {
    const caller = await api.newOrganization();
    const created = await api.request('POST', '/api/v1/api-keys', { as: caller, json: { name: 'ci pipeline' } });
    assert.equal(created.status, 201);
    assert.match(created.body.apiKey, /^hmk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.prefix, prefixOf(created.body.apiKey));
    assert.equal(created.body.role, 'partner');
    const newKey = { 'x-api-key': created.body.apiKey };
    assert.equal((await api.request('GET', PROTECTED, { headers: newKey })).status, 200);
    assert.equal((await api.request('GET', '/api/v1/api-keys', { as: caller })).body.total, 2);

    const revoked = await api.request('DELETE', `/api/v1/api-keys/${created.body.id}`, { as: caller });
    assert.equal(revoked.status, 204);
    assert.equal(revoked.text, '');
    assert.equal((await api.request('GET', PROTECTED, { headers: newKey })).status, 401);
    const listed = await api.request('GET', '/api/v1/api-keys', { as: caller });
    const entry = listed.body.apiKeys.find((k: { id: string }) => k.id === created.body.id);
    assert.equal(entry.revokedAt, api.clock.now().toISOString());
    // The original key still works.
    assert.equal((await api.request('GET', PROTECTED, { as: caller })).status, 200);
  });

  it('validate the create body and the revoke path', async () => {
    const caller = await api.newOrganization();
    const blank = await api.request('POST', '/api/v1/api-keys', { as: caller, json: { name: '' } });
    assert.equal(blank.status, 400);
    assert.match(blank.body.message, /name/);
    assert.equal((await api.request('DELETE', '/api/v1/api-keys/not-a-key', { as: caller })).status, 400);
    assert.equal((await api.request('GET', '/api/v1/api-keys', { as: caller })).body.total, 1);
  });

  it('cannot be listed or revoked by another organization', async () => {
    const alpha = await api.newOrganization();
    const beta = await api.newOrganization();
    const alphaKeyId = prefixOf(alpha.apiKey).slice(4);
    const attempt = await api.request('DELETE', `/api/v1/api-keys/${alphaKeyId}`, { as: beta });
    assert.equal(attempt.status, 404);
    assert.equal((await api.request('GET', PROTECTED, { as: alpha })).status, 200);
    const betaList = await api.request('GET', '/api/v1/api-keys', { as: beta });
    assert.ok(!betaList.body.apiKeys.some((k: { id: string }) => k.id === alphaKeyId));
  });
});

describe('bearer tokens (POST /api/v1/auth/token)', () => {
  it('are issued for an API key through HTTP Basic or form fields, and authenticate', async () => {
    const caller = await api.newOrganization();
    const viaBasic = await tokenFor(caller);
    const viaForm = await api.request('POST', '/api/v1/auth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: prefixOf(caller.apiKey),
        client_secret: caller.apiKey,
      }).toString(),
    });
    assert.equal(viaForm.status, 200);
    assert.equal(viaForm.body.token_type, 'Bearer');
    assert.equal(viaForm.body.expires_in, TOKEN_LIFETIME_SECONDS);
    for (const token of [viaBasic, viaForm.body.access_token]) {
      const response = await api.request('GET', PROTECTED, bearer(token));
      assert.equal(response.status, 200);
    }
  });

  it('act for their own organization only', async () => {
    const alpha = await api.newOrganization();
    const beta = await api.newOrganization();
    await api.request('PUT', '/api/v1/export-format', { as: alpha, json: { format: 'json' } });
    const betaToken = await tokenFor(beta);
    assert.equal((await api.request('GET', '/api/v1/export-format', bearer(betaToken))).status, 404);
    assert.equal((await api.request('GET', '/api/v1/export-format', bearer(await tokenFor(alpha)))).body.format, 'json');
  });

  it('are refused for a bad grant, a wrong key, a mismatched client id or a non-form body', async () => {
    const caller = await api.newOrganization();
    const other = await api.newOrganization();
    const form = (fields: Record<string, string>) => ({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const badGrant = await api.request('POST', '/api/v1/auth/token', form({ grant_type: 'password', client_secret: caller.apiKey }));
    assert.equal(badGrant.status, 400);
    assert.match(badGrant.body.message, /grant_type/);
    const noSecret = await api.request('POST', '/api/v1/auth/token', form({ grant_type: 'client_credentials' }));
    assert.equal(noSecret.status, 400);
    const wrongKey = await api.request('POST', '/api/v1/auth/token', form({ grant_type: 'client_credentials', client_secret: 'hmk_nope' }));
    assert.equal(wrongKey.status, 401);
    const mismatched = await api.request(
      'POST',
      '/api/v1/auth/token',
      form({ grant_type: 'client_credentials', client_id: prefixOf(other.apiKey), client_secret: caller.apiKey }),
    );
    assert.equal(mismatched.status, 401);
    const json = await api.request('POST', '/api/v1/auth/token', {
      json: { grant_type: 'client_credentials', client_secret: caller.apiKey },
    });
    assert.equal(json.status, 415);
  });

  it('answer 401 when expired, tampered with, or their key is revoked', async () => {
    const caller = await api.newOrganization();
    const token = await tokenFor(caller);
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}xx`;
    assert.equal((await api.request('GET', PROTECTED, bearer(tampered))).status, 401);
    assert.equal((await api.request('GET', PROTECTED, { headers: { authorization: token } })).status, 401);

    api.clock.advance((TOKEN_LIFETIME_SECONDS + 1) * 1000);
    const expired = await api.request('GET', PROTECTED, bearer(token));
    assert.equal(expired.status, 401);
    assert.match(expired.body.message, /expired/);

    const fresh = await tokenFor(caller);
    assert.equal((await api.request('GET', PROTECTED, bearer(fresh))).status, 200);
    const keyId = prefixOf(caller.apiKey).slice(4);
    await apiKeyStoreOf(api.runtime).revoke(caller.organization.id, keyId, api.clock.now());
    const revoked = await api.request('GET', PROTECTED, bearer(fresh));
    assert.equal(revoked.status, 401);
    assert.match(revoked.body.message, /revoked/);
  });

  it('signed with another key are refused', async () => {
    const elsewhere = await startTestApi({
      config: { tableName: api.config.tableName, bucketName: api.config.bucketName },
      provision: false,
    });
    const caller = await api.newOrganization();
    const foreignToken = (
      await bearerTokensOf(elsewhere.runtime).issue(
        { organizationId: caller.organization.id, keyId: prefixOf(caller.apiKey).slice(4), role: 'partner' },
        api.clock.now(),
      )
    ).accessToken;
    assert.equal((await api.request('GET', PROTECTED, bearer(foreignToken))).status, 401);
  });

  it('are ES256, and an HS256 token (as they were once issued, or keyed with the public key) is refused', async () => {
    const caller = await api.newOrganization();
    const issued = await tokenFor(caller);
    assert.equal(decodeProtectedHeader(issued).alg, 'ES256');
    const publicKey = createPublicKey(api.config.localTokenSigningKey!).export({ format: 'der', type: 'spki' });
    for (const key of [new TextEncoder().encode('a signing secret of the old kind, 32+ bytes'), publicKey]) {
      const hmac = await new SignJWT({ ...decodeJwt(issued) }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
      const response = await api.request('GET', PROTECTED, bearer(hmac));
      assert.equal(response.status, 401);
      assert.equal(response.body.message, 'Invalid or expired bearer token.');
    }
  });
});

describe('admin keys', () => {
  it('are told apart from partner keys by their role', async () => {
    const admin = await api.newOrganization({ role: 'admin' });
    const { body } = await api.request('GET', '/api/v1/api-keys', { as: admin });
    assert.equal(body.apiKeys[0].role, 'admin');
    const principal = await authenticatorOf(api.runtime).authenticate({ 'x-api-key': admin.apiKey }, api.clock.now());
    assert.equal(principal.role, 'admin');
  });
});
