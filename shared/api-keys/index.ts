/** API keys and bearer tokens: how a caller proves who it is, and the endpoints partners manage their credentials with. */
export { apiKeyRoutes } from './routes';
export { createApiKey, issueToken, listApiKeys, revokeApiKey } from './endpoints';
export { createOrganizationKey } from './operations';
export { httpHandler, idempotentHttpHandler } from './handlers';
export { apiKeyStoreOf, authenticatorOf, bearerTokensOf } from './services';
export { isUsable, parseApiKey } from './credentials';
