import { httpHandler } from '../../shared/platform/http/handler';
import { apiKeyRoutes, revokeApiKey } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.revokeApiKey, revokeApiKey);
