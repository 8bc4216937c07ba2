import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getQuotaStatus } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getQuotaStatus, getQuotaStatus);
