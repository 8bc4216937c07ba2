import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getPlanUsage } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getPlanUsage, getPlanUsage);
