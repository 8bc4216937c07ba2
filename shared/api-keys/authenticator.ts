/**
 * Turns request headers into a verified Principal. Two credential forms are accepted everywhere a
 * credential is: `X-API-Key: hmk_...` and `Authorization: Bearer <token>`.
 */
import type { Authenticate, Headers, Principal } from '../platform/auth/principal';
import { unauthenticated } from '../platform/errors';
import type { BearerTokens } from './bearer-tokens';
import { isUsable, parseApiKey, secretMatches, type ApiKeyRecord } from './credentials';

export interface ApiKeyLookup {
  get(keyId: string): Promise<ApiKeyRecord | undefined>;
}

export class Authenticator implements Authenticate {
  constructor(
    private readonly apiKeys: ApiKeyLookup,
    private readonly tokens: BearerTokens,
  ) {}

  /** The caller's principal; throws `unauthenticated` for a missing or unusable credential. */
  async authenticate(headers: Headers, now: Date): Promise<Principal> {
    const apiKey = headers['x-api-key'];
    if (apiKey !== undefined) return this.fromApiKey(apiKey);
    const authorization = headers['authorization'];
    if (authorization !== undefined) return this.fromAuthorization(authorization, now);
    throw unauthenticated('Missing credential: send an X-API-Key header or an Authorization: Bearer token.');
  }

  /** Verifies a full API key (also used by the token endpoint). */
  async verifyApiKey(plaintext: string): Promise<ApiKeyRecord> {
    const parsed = parseApiKey(plaintext);
    const record = parsed && (await this.apiKeys.get(parsed.keyId));
    if (!parsed || !isUsable(record) || !secretMatches(parsed.secret, record)) {
      throw unauthenticated('Invalid or revoked API key.');
    }
    return record;
  }

  private async fromApiKey(plaintext: string): Promise<Principal> {
    const record = await this.verifyApiKey(plaintext);
    return { organizationId: record.organizationId, keyId: record.id, role: record.role, credential: 'api_key' };
  }

  private async fromAuthorization(authorization: string, now: Date): Promise<Principal> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>".');
    const claims = await this.tokens.verify(match[1]!, now);
    if (!claims) throw unauthenticated('Invalid or expired bearer token.');
    // The key behind the token must still be live: revoking a key ends its tokens at once.
    const record = await this.apiKeys.get(claims.keyId);
    if (!isUsable(record)) throw unauthenticated('The API key behind this token has been revoked.');
    // Only a token signed with our own key outside the token endpoint could name another organization's key.
    if (record.organizationId !== claims.organizationId) throw unauthenticated('Invalid or expired bearer token.');
    return { organizationId: claims.organizationId, keyId: claims.keyId, role: record.role, credential: 'bearer' };
  }
}
