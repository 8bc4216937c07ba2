import { httpHandler } from '../../../shared/api-keys';
import { updateWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.updateWebhookSubscription, updateWebhookSubscription);
