import { httpHandler } from '../../shared/api-keys';
import { apiKeyRoutes, revokeApiKey } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.revokeApiKey, revokeApiKey);
