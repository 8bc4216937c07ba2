import { idempotentHttpHandler } from '../../../shared/platform/http/idempotent-handler';
import { createWebhookSubscription, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(subscriptionRoutes.createWebhookSubscription, createWebhookSubscription);
