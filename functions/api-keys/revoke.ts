import { httpHandler } from '../../shared/platform/http/handler';
import { revokeApiKey } from '../../shared/api-keys';

export const handler = httpHandler(revokeApiKey);
