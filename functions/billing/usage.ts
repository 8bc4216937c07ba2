import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getUsage } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getUsage, getUsage);
