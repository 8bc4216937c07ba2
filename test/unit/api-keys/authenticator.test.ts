import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { Authenticator, type ApiKeyLookup } from '../../../shared/api-keys/authenticator';
import { BearerTokens, TOKEN_LIFETIME_SECONDS } from '../../../shared/api-keys/bearer-tokens';
import { issueApiKey, type ApiKeyRecord } from '../../../shared/api-keys/credentials';
import { LocalTokenSigningKey } from '../../../shared/api-keys/token-signing-key';
import { DomainError } from '../../../shared/platform/errors';

const now = new Date('2026-03-01T12:00:00Z');
const newSigningKey = () =>
  new LocalTokenSigningKey(
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  );
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

/** The key store as the authenticator sees it: a lookup by key id, counting its reads. */
class KeysInMemory implements ApiKeyLookup {
  readonly records = new Map<string, ApiKeyRecord>();
  reads = 0;

  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    this.reads++;
    return this.records.get(keyId);
  }

  add(record: ApiKeyRecord): void {
    this.records.set(record.id, record);
  }

  revoke(keyId: string): void {
    this.records.set(keyId, { ...this.records.get(keyId)!, revokedAt: now.toISOString() });
  }
}

function setUp() {
  const keys = new KeysInMemory();
  const tokens = new BearerTokens(newSigningKey());
  const authenticator = new Authenticator(keys, tokens);
  const partner = issueApiKey({ organizationId: 'org-1', name: 'partner key', role: 'partner', now });
  const admin = issueApiKey({ organizationId: 'org-1', name: 'admin key', role: 'admin', now });
  keys.add(partner.record);
  keys.add(admin.record);
  const tokenOf = async (record: ApiKeyRecord, at = now) =>
    (await tokens.issue({ organizationId: record.organizationId, keyId: record.id, role: record.role }, at)).accessToken;
  return { keys, tokens, authenticator, partner, admin, tokenOf };
}

/** Asserts an `unauthenticated` DomainError with exactly this message. */
async function refused(attempt: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'unauthenticated');
    assert.equal(error.message, message);
    return true;
  });
}

const INVALID_KEY = 'Invalid or revoked API key.';
const INVALID_TOKEN = 'Invalid or expired bearer token.';
const REVOKED_BEHIND_TOKEN = 'The API key behind this token has been revoked.';
const BAD_SCHEME = 'The Authorization header must be "Bearer <token>".';
const MISSING = 'Missing credential: send an X-API-Key header or an Authorization: Bearer token.';

describe('authenticating with an API key', () => {
  it('accepts a live key and answers its organization, key and role', async () => {
    const { authenticator, partner, admin } = setUp();
    assert.deepEqual(await authenticator.authenticate({ 'x-api-key': partner.plaintext }, now), {
      organizationId: 'org-1',
      keyId: partner.record.id,
      role: 'partner',
      credential: 'api_key',
    });
    assert.equal((await authenticator.authenticate({ 'x-api-key': admin.plaintext }, now)).role, 'admin');
  });

  it('refuses a revoked key', async () => {
    const { authenticator, keys, partner } = setUp();
    keys.revoke(partner.record.id);
    await refused(authenticator.authenticate({ 'x-api-key': partner.plaintext }, now), INVALID_KEY);
  });

  it('refuses a malformed key without looking anything up', async () => {
    const { authenticator, keys, partner } = setUp();
    for (const text of ['', 'hmk_', 'not a key', partner.plaintext.slice(0, -1), partner.plaintext.replace('hmk_', 'hmx_')]) {
      await refused(authenticator.authenticate({ 'x-api-key': text }, now), INVALID_KEY);
    }
    assert.equal(keys.reads, 0);
  });

  it('refuses a well-formed key that is unknown, or whose secret is wrong, with the same message', async () => {
    const { authenticator, partner } = setUp();
    const stranger = issueApiKey({ organizationId: 'org-1', name: 'never stored', role: 'partner', now });
    await refused(authenticator.authenticate({ 'x-api-key': stranger.plaintext }, now), INVALID_KEY);
    // The right key id with another key's secret.
    const wrongSecret = `${partner.record.prefix}_${stranger.plaintext.slice(stranger.record.prefix.length + 1)}`;
    await refused(authenticator.authenticate({ 'x-api-key': wrongSecret }, now), INVALID_KEY);
  });

  it('verifies a full key for the token endpoint, answering its record', async () => {
    const { authenticator, keys, partner } = setUp();
    assert.deepEqual(await authenticator.verifyApiKey(partner.plaintext), partner.record);
    keys.revoke(partner.record.id);
    await refused(authenticator.verifyApiKey(partner.plaintext), INVALID_KEY);
  });
});

describe('authenticating with a bearer token', () => {
  it('accepts a token of a live key, whatever the case of the scheme', async () => {
    const { authenticator, partner, tokenOf } = setUp();
    const token = await tokenOf(partner.record);
    const expected = { organizationId: 'org-1', keyId: partner.record.id, role: 'partner', credential: 'bearer' };
    assert.deepEqual(await authenticator.authenticate({ authorization: `Bearer ${token}` }, now), expected);
    assert.deepEqual(await authenticator.authenticate({ authorization: `bearer ${token}` }, now), expected);
    assert.deepEqual(await authenticator.authenticate({ authorization: `  BEARER   ${token}  ` }, now), expected);
  });

  it('refuses an expired token', async () => {
    const { authenticator, partner, tokenOf } = setUp();
    const token = await tokenOf(partner.record);
    assert.equal(
      (await authenticator.authenticate({ authorization: `Bearer ${token}` }, later(TOKEN_LIFETIME_SECONDS - 1))).keyId,
      partner.record.id,
    );
    await refused(authenticator.authenticate({ authorization: `Bearer ${token}` }, later(TOKEN_LIFETIME_SECONDS)), INVALID_TOKEN);
  });

  it('refuses a token that is not one of ours', async () => {
    const { authenticator, partner } = setUp();
    const foreign = await new BearerTokens(newSigningKey()).issue(
      { organizationId: 'org-1', keyId: partner.record.id, role: 'admin' },
      now,
    );
    await refused(authenticator.authenticate({ authorization: `Bearer ${foreign.accessToken}` }, now), INVALID_TOKEN);
    await refused(authenticator.authenticate({ authorization: 'Bearer not.a.token' }, now), INVALID_TOKEN);
    // An API key is no bearer token.
    await refused(authenticator.authenticate({ authorization: `Bearer ${partner.plaintext}` }, now), INVALID_TOKEN);
  });

  it('refuses the token of a key revoked since, or gone', async () => {
    const { authenticator, keys, partner, admin, tokenOf } = setUp();
    const partnerToken = await tokenOf(partner.record);
    const adminToken = await tokenOf(admin.record);
    keys.revoke(partner.record.id);
    await refused(authenticator.authenticate({ authorization: `Bearer ${partnerToken}` }, now), REVOKED_BEHIND_TOKEN);
    keys.records.delete(admin.record.id);
    await refused(authenticator.authenticate({ authorization: `Bearer ${adminToken}` }, now), REVOKED_BEHIND_TOKEN);
  });

  it('refuses a token whose organization is not that of its key', async () => {
    const { authenticator, tokens, partner } = setUp();
    const { accessToken } = await tokens.issue({ organizationId: 'org-2', keyId: partner.record.id, role: 'partner' }, now);
    await refused(authenticator.authenticate({ authorization: `Bearer ${accessToken}` }, now), INVALID_TOKEN);
  });

  it('takes the role from the key, not from the token', async () => {
    const { authenticator, tokens, partner } = setUp();
    const { accessToken } = await tokens.issue({ organizationId: 'org-1', keyId: partner.record.id, role: 'admin' }, now);
    assert.equal((await authenticator.authenticate({ authorization: `Bearer ${accessToken}` }, now)).role, 'partner');
  });

  it('refuses any other Authorization scheme or shape', async () => {
    const { authenticator, keys, partner, tokenOf } = setUp();
    const token = await tokenOf(partner.record);
    for (const authorization of [
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Token ${token}`,
      token,
      'Bearer',
      'Bearer ',
      `Bearer ${token} extra`,
      '',
    ]) {
      await refused(authenticator.authenticate({ authorization }, now), BAD_SCHEME);
    }
    assert.equal(keys.reads, 0);
  });
});

describe('the credential a request carries', () => {
  it('is required', async () => {
    const { authenticator } = setUp();
    await refused(authenticator.authenticate({}, now), MISSING);
    await refused(authenticator.authenticate({ 'x-api-key': undefined, authorization: undefined, cookie: 'session=1' }, now), MISSING);
  });

  it('is the API key when both are sent: a bad key is not rescued by a good token', async () => {
    const { authenticator, partner, admin, tokenOf } = setUp();
    const adminToken = await tokenOf(admin.record);
    const principal = await authenticator.authenticate({ 'x-api-key': partner.plaintext, authorization: `Bearer ${adminToken}` }, now);
    assert.equal(principal.credential, 'api_key');
    assert.equal(principal.keyId, partner.record.id);
    await refused(authenticator.authenticate({ 'x-api-key': 'hmk_garbage', authorization: `Bearer ${adminToken}` }, now), INVALID_KEY);
  });
});
