import { defineRoute, type RouteDefinition } from '../platform/http/route';
import * as schemas from './schemas';
import { MAX_ACTIVE_API_KEYS } from './credentials';
import { errors } from '../platform/http/responses';

export const apiKeyRoutes = {
  issueToken: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/token',
    // Each exchange signs with KMS; ten a second is 36,000 tokens an hour, and bounds credential stuffing.
    throttle: { ratePerSecond: 10, burst: 20 },
    handler: 'api-keys/token',
    auth: 'none',
    tag: 'Authentication',
    summary: 'Exchange an API key for a bearer token (OAuth 2.0 client credentials)',
    description:
      'Send `grant_type=client_credentials` form-encoded, with the API key as the client secret: either HTTP Basic ' +
      '(`client_id` = key prefix `hmk_<keyId>`, password = the full key) or `client_id`/`client_secret` form fields. ' +
      'The token is valid for one hour and stops working at once when its key is revoked.',
    body: {
      kind: 'form',
      schema: schemas.TokenRequest,
      example: {
        grant_type: 'client_credentials',
        client_id: 'hmk_3f9c2a7b1d04',
        client_secret: 'hmk_3f9c2a7b1d04_your-secret-from-key-creation',
      },
    },
    responses: {
      200: { description: 'A bearer token', schema: schemas.TokenResponse },
      400: errors[400],
      401: errors[401],
      415: errors[415],
    },
    // The key it exchanges, by id: nothing of any organization.
    access: { table: 'read', partitions: ['APIKEY#*'], signsTokens: true },
    // Every bearer token starts here: it must answer when the account is busy, and a credential stuffer gets no more.
    lambda: { reservedConcurrency: 10 },
  }),
  listApiKeys: defineRoute({
    method: 'GET',
    path: '/api/v1/api-keys',
    handler: 'api-keys/list',
    auth: 'required',
    tag: 'Authentication',
    summary: "List the organization's API keys (prefixes only)",
    description:
      "Every key of the caller's organization with its id, name, role, prefix and dates (`revokedAt` once revoked); never a secret: keys are stored hashed.",
    responses: { 200: { description: 'API keys, oldest first', schema: schemas.ApiKeyList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  createApiKey: defineRoute({
    method: 'POST',
    path: '/api/v1/api-keys',
    handler: 'api-keys/create',
    auth: 'required',
    tag: 'Authentication',
    summary: 'Create a partner API key; the full key is shown only in this response',
    description:
      'Partner keys only (admin keys are issued by the back office). Store the key at once: it cannot be shown again. A key authenticates as `X-API-Key`, or exchanges for a bearer token at POST /api/v1/auth/token. ' +
      `An organization holds at most ${MAX_ACTIVE_API_KEYS} active keys; beyond that, 400 until one is revoked.`,
    body: { kind: 'json', schema: schemas.CreateApiKeyRequest, example: { name: 'Production sync' } },
    responses: { 201: { description: 'The new key', schema: schemas.CreatedApiKey }, 400: errors[400], 401: errors[401], 415: errors[415] },
    access: { table: 'readwrite' },
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE',
    path: '/api/v1/api-keys/{keyId}',
    handler: 'api-keys/revoke',
    auth: 'required',
    tag: 'Authentication',
    summary: 'Revoke an API key; it and the bearer tokens issued for it stop working at once',
    description:
      "Revoking is permanent and takes effect on the next request, for the key and every bearer token issued for it. Another organization's key answers 404.",
    params: schemas.KeyIdParams,
    responses: { 204: { description: 'Revoked' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    access: { table: 'readwrite' },
  }),
} satisfies Record<string, RouteDefinition>;
