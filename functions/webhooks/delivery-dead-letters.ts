import { deadLetterWorker } from '../../shared/platform/queue/worker';
import { abandonWebhookAttempt, webhookDeliveryQueue } from '../../shared/webhooks';

export const handler = deadLetterWorker(webhookDeliveryQueue, abandonWebhookAttempt);
