import { httpHandler } from '../../shared/platform/http/handler';
import { apiKeyRoutes, listApiKeys } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.listApiKeys, listApiKeys);
