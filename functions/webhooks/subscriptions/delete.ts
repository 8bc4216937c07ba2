import { httpHandler } from '../../../shared/api-keys';
import { deleteWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.deleteWebhookSubscription, deleteWebhookSubscription);
