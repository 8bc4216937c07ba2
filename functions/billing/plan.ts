import { httpHandler } from '../../shared/platform/http/handler';
import { getPlanUsage } from '../../shared/billing';

export const handler = httpHandler(getPlanUsage);
