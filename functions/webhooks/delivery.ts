import { queueWorker } from '../../shared/platform/queue/worker';
import { attemptWebhookDelivery, webhookDeliveryQueue } from '../../shared/webhooks';

export const handler = queueWorker(webhookDeliveryQueue, attemptWebhookDelivery);
