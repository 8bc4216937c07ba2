/** The API-key endpoints: the token exchange and the organization's own keys. */
import { issueApiKey, keyIdFromPrefix, MAX_ACTIVE_API_KEYS } from './credentials';
import { apiKeyStoreOf, authenticatorOf, bearerTokensOf } from './services';
import { invalidInput, limitReached, notFound, unauthenticated } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { apiKeyRoutes } from './routes';
import { apiKeyView } from './views';

export const issueToken: Implementation<typeof apiKeyRoutes.issueToken> = async ({ body, headers }, runtime) => {
  const client = clientCredentials(headers['authorization'], body);
  const key = await authenticatorOf(runtime).verifyApiKey(client.secret);
  if (client.id !== undefined && keyIdFromPrefix(client.id) !== key.id) {
    throw unauthenticated('client_id does not match the API key.');
  }
  const token = await bearerTokensOf(runtime).issue(
    { organizationId: key.organizationId, keyId: key.id, role: key.role },
    runtime.clock.now(),
  );
  return {
    status: 200,
    json: { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn },
  };
};

export const listApiKeys: Implementation<typeof apiKeyRoutes.listApiKeys> = async ({ principal }, runtime) => {
  const records = await apiKeyStoreOf(runtime).listForOrganization(principal.organizationId);
  return { status: 200, json: { apiKeys: records.map(apiKeyView), total: records.length } };
};

/** Partners create partner keys only, up to the cap; admin keys are made with `npm run admin`. */
export const createApiKey: Implementation<typeof apiKeyRoutes.createApiKey> = async ({ principal, body }, runtime) => {
  const issued = issueApiKey({ organizationId: principal.organizationId, name: body.name, role: 'partner', now: runtime.clock.now() });
  if (!(await apiKeyStoreOf(runtime).create(issued.record, MAX_ACTIVE_API_KEYS))) {
    throw limitReached(
      `Your organization has ${MAX_ACTIVE_API_KEYS} active API keys, the most it may have: revoke one it no longer uses (DELETE /api/v1/api-keys/{keyId}) before creating another.`,
    );
  }
  return { status: 201, json: { ...apiKeyView(issued.record), apiKey: issued.plaintext } };
};

export const revokeApiKey: Implementation<typeof apiKeyRoutes.revokeApiKey> = async ({ principal, params }, runtime) => {
  const revoked = await apiKeyStoreOf(runtime).revoke(principal.organizationId, params.keyId, runtime.clock.now());
  if (!revoked) throw notFound(`Your organization has no API key ${params.keyId}.`);
  return { status: 204 };
};

/**
 * RFC 6749 section 2.3.1: HTTP Basic, or client_id and client_secret in the form; never both
 * (section 2.3: one authentication method per request), since which key to issue for would be a guess.
 */
function clientCredentials(
  authorization: string | undefined,
  form: { client_id?: string; client_secret?: string },
): { id?: string; secret: string } {
  const basic = authorization && /^Basic\s+(\S+)$/i.exec(authorization.trim());
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator < 0) throw unauthenticated('The Basic credential must be client_id:client_secret.');
    const id = decodeURIComponent(decoded.slice(0, separator));
    if (form.client_secret !== undefined || (form.client_id !== undefined && form.client_id !== id)) {
      throw invalidInput('Send the client credentials one way: HTTP Basic, or client_id and client_secret in the form, not both.');
    }
    return { id, secret: decodeURIComponent(decoded.slice(separator + 1)) };
  }
  if (!form.client_secret) {
    throw invalidInput('client_secret is required: send the API key as client_secret or through HTTP Basic.');
  }
  return { id: form.client_id, secret: form.client_secret };
}
