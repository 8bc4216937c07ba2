import { httpHandler } from '../../../shared/platform/http/handler';
import { getDelivery, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.getDelivery, getDelivery);
