import { httpHandler } from '../../shared/platform/http/handler';
import { apiKeyRoutes, createApiKey } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.createApiKey, createApiKey);
