import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getQuotaStatus } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getQuotaStatus, getQuotaStatus);
