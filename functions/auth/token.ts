import { routes } from '../../shared/routes';
import { keyIdFromPrefix } from '../../shared/platform/auth/credentials';
import { invalidInput, unauthenticated } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.issueToken, async ({ body, headers }, { authenticator, tokens, clock }) => {
  const client = clientCredentials(headers['authorization'], body);
  const key = await authenticator.verifyApiKey(client.secret);
  if (client.id !== undefined && keyIdFromPrefix(client.id) !== key.id) {
    throw unauthenticated('client_id does not match the API key.');
  }
  const token = await tokens.issue({ organizationId: key.organizationId, keyId: key.id, role: key.role }, clock.now());
  return {
    status: 200,
    json: { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn },
  };
});

/** RFC 6749 section 2.3.1: HTTP Basic, or client_id and client_secret in the form. */
function clientCredentials(
  authorization: string | undefined,
  form: { client_id?: string; client_secret?: string },
): { id?: string; secret: string } {
  const basic = authorization && /^Basic\s+(\S+)$/i.exec(authorization.trim());
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator < 0) throw unauthenticated('The Basic credential must be client_id:client_secret.');
    return { id: decodeURIComponent(decoded.slice(0, separator)), secret: decodeURIComponent(decoded.slice(separator + 1)) };
  }
  if (!form.client_secret) {
    throw invalidInput('client_secret is required: send the API key as client_secret or through HTTP Basic.');
  }
  return { id: form.client_id, secret: form.client_secret };
}
