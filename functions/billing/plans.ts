import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, listPlans } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.listPlans, listPlans);
