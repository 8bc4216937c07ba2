import { httpHandler } from '../../../shared/api-keys';
import { listDeliveries, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.listDeliveries, listDeliveries);
