import { httpHandler } from '../../../shared/api-keys';
import { getWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.getWebhookSubscription, getWebhookSubscription);
