import { httpHandler } from '../../shared/platform/http/handler';
import { listApiKeys } from '../../shared/api-keys';

export const handler = httpHandler(listApiKeys);
