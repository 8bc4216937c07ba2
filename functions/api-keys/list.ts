import { httpHandler } from '../../shared/api-keys';
import { apiKeyRoutes, listApiKeys } from '../../shared/api-keys';

export const handler = httpHandler(apiKeyRoutes.listApiKeys, listApiKeys);
