import { httpHandler } from '../../../shared/api-keys';
import { listWebhookSubscriptions, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.listWebhookSubscriptions, listWebhookSubscriptions);
