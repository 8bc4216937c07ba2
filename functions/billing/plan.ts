import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getPlanUsage } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getPlanUsage, getPlanUsage);
