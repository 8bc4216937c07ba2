import { httpHandler } from '../../../shared/api-keys';
import { getDelivery, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.getDelivery, getDelivery);
