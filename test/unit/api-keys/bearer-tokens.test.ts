import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import {
  BearerTokens,
  TOKEN_AUDIENCE,
  TOKEN_CLOCK_SKEW_SECONDS,
  TOKEN_ISSUER,
  TOKEN_LIFETIME_SECONDS,
  type TokenClaims,
} from '../../../shared/api-keys/bearer-tokens';
import { LocalTokenSigningKey, tokenSigningKeyFrom } from '../../../shared/api-keys/token-signing-key';

const newPem = (namedCurve = 'P-256') =>
  generateKeyPairSync('ec', { namedCurve }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const pem = newPem();
const privateKey = createPrivateKey(pem);
const tokens = new BearerTokens(new LocalTokenSigningKey(pem));
const claims: TokenClaims = { organizationId: 'org-1', keyId: '0123456789ab', role: 'partner' };
const now = new Date('2026-03-01T12:00:00Z');
const seconds = (count: number) => new Date(now.getTime() + count * 1000);
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** A token signed with the API's key, but built by hand: what `issue` would never make. */
function handMade(options: {
  payload?: Record<string, unknown>;
  subject?: string;
  issuer?: string;
  audience?: string;
  issuedAt?: number;
  expiresAt?: number;
  /** Another algorithm, with the key it takes. */
  signedWith?: { algorithm: string; key: Parameters<SignJWT['sign']>[0] };
}): Promise<string> {
  const { algorithm, key } = options.signedWith ?? { algorithm: 'ES256', key: privateKey };
  let jwt = new SignJWT(options.payload ?? { key: claims.keyId, role: claims.role }).setProtectedHeader({ alg: algorithm });
  jwt = jwt
    .setSubject(options.subject ?? claims.organizationId)
    .setIssuer(options.issuer ?? TOKEN_ISSUER)
    .setAudience(options.audience ?? TOKEN_AUDIENCE);
  if (options.issuedAt !== undefined) jwt = jwt.setIssuedAt(options.issuedAt);
  if (options.expiresAt !== undefined) jwt = jwt.setExpirationTime(options.expiresAt);
  return jwt.sign(key);
}

describe('bearer tokens', () => {
  it('carry back the claims they were issued with, for an hour', async () => {
    const issued = await tokens.issue(claims, now);
    assert.equal(issued.expiresIn, TOKEN_LIFETIME_SECONDS);
    assert.equal(TOKEN_LIFETIME_SECONDS, 3600);
    assert.deepEqual(await tokens.verify(issued.accessToken, now), claims);
    assert.deepEqual(await tokens.verify((await tokens.issue({ ...claims, role: 'admin' }, now)).accessToken, now), {
      ...claims,
      role: 'admin',
    });
  });

  it('are ES256 JWTs naming the organization, the key, the issuer and the audience', async () => {
    const { accessToken } = await tokens.issue(claims, now);
    assert.deepEqual(decodeProtectedHeader(accessToken), { alg: 'ES256', typ: 'JWT' });
    assert.equal(Buffer.from(accessToken.split('.')[2]!, 'base64url').length, 64, 'r || s, not DER');
    const payload = decodeJwt(accessToken);
    assert.equal(payload.sub, 'org-1');
    assert.equal(payload.key, '0123456789ab');
    assert.equal(payload.iss, TOKEN_ISSUER);
    assert.equal(payload.aud, TOKEN_AUDIENCE);
    assert.equal(payload.iat, epoch(now));
    assert.equal(payload.exp, epoch(now) + 3600);
  });

  it('are accepted until their last second and refused from their expiry on', async () => {
    const { accessToken } = await tokens.issue(claims, now);
    assert.deepEqual(await tokens.verify(accessToken, seconds(3599)), claims);
    assert.equal(await tokens.verify(accessToken, seconds(3600)), undefined);
    assert.equal(await tokens.verify(accessToken, seconds(86_400)), undefined);
  });

  it('tolerate an issuer clock up to a minute ahead, and no more', async () => {
    assert.equal(TOKEN_CLOCK_SKEW_SECONDS, 60);
    const slightlyAhead = await tokens.issue(claims, seconds(TOKEN_CLOCK_SKEW_SECONDS));
    assert.deepEqual(await tokens.verify(slightlyAhead.accessToken, now), claims);
    const tooFarAhead = await tokens.issue(claims, seconds(TOKEN_CLOCK_SKEW_SECONDS + 1));
    assert.equal(await tokens.verify(tooFarAhead.accessToken, now), undefined);
  });

  it('are refused when signed with another key or altered', async () => {
    const { accessToken } = await new BearerTokens(new LocalTokenSigningKey(newPem())).issue(claims, now);
    assert.equal(await tokens.verify(accessToken, now), undefined);

    const genuine = (await tokens.issue(claims, now)).accessToken;
    const [header, , signature] = genuine.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...decodeJwt(genuine), sub: 'org-2' })).toString('base64url');
    assert.equal(await tokens.verify(`${header}.${forgedPayload}.${signature}`, now), undefined);
  });

  it('are refused when malformed', async () => {
    for (const text of ['', 'not-a-token', 'a.b.c', 'hmk_0123456789ab_' + 'a'.repeat(43)]) {
      assert.equal(await tokens.verify(text, now), undefined, text);
    }
  });

  it('are refused when they are not what issue makes, even if signed with the right key', async () => {
    const iat = epoch(now);
    // The same shape as an issued token is accepted: the cases below differ from it in one thing each.
    assert.deepEqual(await tokens.verify(await handMade({ issuedAt: iat, expiresAt: iat + 3600 }), now), claims);

    const refused = {
      'living longer than an hour': await handMade({ issuedAt: iat, expiresAt: iat + 7200 }),
      'issued long ago, still unexpired': await handMade({ issuedAt: iat - 86_400, expiresAt: iat + 60 }),
      'without iat': await handMade({ expiresAt: iat + 3600 }),
      'without exp': await handMade({ issuedAt: iat }),
      'of another issuer': await handMade({ issuedAt: iat, expiresAt: iat + 3600, issuer: 'someone-else' }),
      'for another audience': await handMade({ issuedAt: iat, expiresAt: iat + 3600, audience: 'another-api' }),
      'with an unknown role': await handMade({ issuedAt: iat, expiresAt: iat + 3600, payload: { key: claims.keyId, role: 'root' } }),
      'without a key': await handMade({ issuedAt: iat, expiresAt: iat + 3600, payload: { role: 'partner' } }),
      // The old form, and HMAC keyed with the public key (algorithm confusion): a verifier holds no secret.
      'signed with HS256': await handMade({
        issuedAt: iat,
        expiresAt: iat + 3600,
        signedWith: { algorithm: 'HS256', key: new TextEncoder().encode('a signing secret of the old kind, 32+ bytes') },
      }),
      'signed with HS256 keyed by the public key': await handMade({
        issuedAt: iat,
        expiresAt: iat + 3600,
        signedWith: { algorithm: 'HS256', key: createPublicKey(privateKey).export({ format: 'der', type: 'spki' }) },
      }),
      'signed with ES384': await handMade({
        issuedAt: iat,
        expiresAt: iat + 3600,
        signedWith: { algorithm: 'ES384', key: createPrivateKey(newPem('P-384')) },
      }),
      unsecured: new UnsecuredJWT({ key: claims.keyId, role: claims.role })
        .setSubject(claims.organizationId)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .encode(),
    };
    for (const [what, token] of Object.entries(refused)) {
      assert.equal(await tokens.verify(token, now), undefined, what);
    }
  });
});

describe('the token signing key', () => {
  it('is the local key when one is given: it signs, and its public half verifies', async () => {
    const key = tokenSigningKeyFrom({ localTokenSigningKey: pem, region: 'eu-west-1' });
    const token = (await new BearerTokens(key).issue(claims, now)).accessToken;
    assert.deepEqual(await tokens.verify(token, now), claims);
    assert.equal((await key.publicKey()).type, 'public');
  });

  it('must be a P-256 key', () => {
    assert.throws(() => new LocalTokenSigningKey(newPem('P-384')), /must be a P-256 private key/);
  });

  it('fails on use, naming the setting, when neither a local key nor a KMS key is configured', async () => {
    const key = tokenSigningKeyFrom({ region: 'eu-west-1' });
    await assert.rejects(key.publicKey(), /No bearer-token signing key is configured \(TOKEN_SIGNING_KEY_ARN\)/);
    await assert.rejects(new BearerTokens(key).issue(claims, now), /No bearer-token signing key/);
    // An unreadable key is an outage, not a bad token: verify fails rather than answering "invalid".
    await assert.rejects(new BearerTokens(key).verify((await tokens.issue(claims, now)).accessToken, now), /No bearer-token signing key/);
  });

  it('refuses to issue with a signature that is not 64 bytes (a DER signature passed through)', async () => {
    const der = { sign: async () => new Uint8Array(70), publicKey: async () => createPublicKey(privateKey) };
    await assert.rejects(new BearerTokens(der).issue(claims, now), /An ES256 signature is 64 bytes \(got 70\)/);
  });
});
