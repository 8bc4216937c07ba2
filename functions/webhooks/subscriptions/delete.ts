import { httpHandler } from '../../../shared/platform/http/handler';
import { deleteWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.deleteWebhookSubscription, deleteWebhookSubscription);
