import { httpHandler } from '../../shared/platform/http/handler';
import { createWebhookSubscription, subscriptionRoutes } from '../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.createWebhookSubscription, createWebhookSubscription);
