import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getSubscription } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getSubscription, getSubscription);
