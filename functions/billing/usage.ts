import { httpHandler } from '../../shared/platform/http/handler';
import { getUsage } from '../../shared/billing';

export const handler = httpHandler(getUsage);
