import { httpHandler } from '../../../shared/platform/http/handler';
import { listWebhookSubscriptions, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.listWebhookSubscriptions, listWebhookSubscriptions);
