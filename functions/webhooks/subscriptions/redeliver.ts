import { httpHandler } from '../../../shared/platform/http/handler';
import { redeliver, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.redeliver, redeliver);
