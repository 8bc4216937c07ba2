import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, listPlans } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.listPlans, listPlans);
