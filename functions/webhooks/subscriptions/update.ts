import { httpHandler } from '../../../shared/platform/http/handler';
import { updateWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.updateWebhookSubscription, updateWebhookSubscription);
