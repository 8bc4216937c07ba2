import * as v from 'valibot';
import { KEY_ROLES } from '../platform/auth/principal';
import { Text, Timestamp } from '../platform/http/schemas';

// Loose on purpose, unlike every other body: RFC 6749 (3.2) has the token endpoint ignore parameters
// it does not know (clients send scope, audience, resource).
export const TokenRequest = v.object({
  grant_type: v.pipe(
    v.literal('client_credentials', 'must be "client_credentials"'),
    v.description('OAuth 2.0 grant type; only client_credentials is supported'),
  ),
  client_id: v.optional(v.pipe(v.string(), v.description('The API key prefix (`hmk_<keyId>`); or use HTTP Basic'))),
  client_secret: v.optional(v.pipe(v.string(), v.description('The full API key; or use HTTP Basic'))),
});

export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.description('Send as `Authorization: Bearer <access_token>`')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.description('Seconds until the token expires')),
});

export const CreateApiKeyRequest = v.strictObject({
  name: Text({ maxLength: 100 }),
});

export const ApiKeyView = v.object({
  id: v.string(),
  name: v.string(),
  prefix: v.pipe(v.string(), v.description('Public part of the key (also the OAuth client id)')),
  role: v.picklist(KEY_ROLES),
  createdAt: Timestamp,
  revokedAt: v.optional(Timestamp),
});

export const CreatedApiKey = v.object({
  ...ApiKeyView.entries,
  apiKey: v.pipe(v.string(), v.description('The full key. Shown only in this response; store it safely.')),
});

export const ApiKeyList = v.object({ apiKeys: v.array(ApiKeyView), total: v.number() });

export const KeyIdParams = v.object({
  keyId: v.pipe(
    v.string(),
    v.regex(/^[0-9a-f]{12}$/, 'must be a key id (12 hexadecimal characters)'),
    v.description("The key's id: the 12 hexadecimal characters after hmk_ in its prefix"),
    v.examples(['3f9c2a7b1d04']),
  ),
});
