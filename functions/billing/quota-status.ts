import { httpHandler } from '../../shared/platform/http/handler';
import { getQuotaStatus } from '../../shared/billing';

export const handler = httpHandler(getQuotaStatus);
