import { httpHandler } from '../../shared/api-keys';
import { apiKeyRoutes, createApiKey } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.createApiKey, createApiKey);
