import { httpHandler } from '../../../shared/api-keys';
import { replaceLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.replaceLegacyWebhook, replaceLegacyWebhook);
