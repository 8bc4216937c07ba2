import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getSubscription } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getSubscription, getSubscription);
