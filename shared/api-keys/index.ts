/** API keys and bearer tokens: the endpoints partners manage their credentials with. */
export { apiKeyRoutes } from './routes';
export { createApiKey, issueToken, listApiKeys, revokeApiKey } from './endpoints';
export { createOrganizationKey } from './operations';
