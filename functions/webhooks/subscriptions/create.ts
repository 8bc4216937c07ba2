import { idempotentHttpHandler } from '../../../shared/api-keys';
import { createWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(subscriptionRoutes.createWebhookSubscription, createWebhookSubscription);
