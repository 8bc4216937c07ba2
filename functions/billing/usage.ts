import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getUsage } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getUsage, getUsage);
