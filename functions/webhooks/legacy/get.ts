import { httpHandler } from '../../../shared/api-keys';
import { getLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.getLegacyWebhook, getLegacyWebhook);
