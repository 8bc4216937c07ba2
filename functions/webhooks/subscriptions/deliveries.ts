import { httpHandler } from '../../../shared/platform/http/handler';
import { listDeliveries, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.listDeliveries, listDeliveries);
