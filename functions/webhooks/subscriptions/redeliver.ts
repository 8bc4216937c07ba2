import { httpHandler } from '../../../shared/api-keys';
import { redeliver, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.redeliver, redeliver);
