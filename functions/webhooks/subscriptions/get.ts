import { httpHandler } from '../../../shared/platform/http/handler';
import { getWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.getWebhookSubscription, getWebhookSubscription);
