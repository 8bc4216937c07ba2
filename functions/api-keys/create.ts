import { httpHandler } from '../../shared/platform/http/handler';
import { createApiKey } from '../../shared/api-keys';

export const handler = httpHandler(createApiKey);
