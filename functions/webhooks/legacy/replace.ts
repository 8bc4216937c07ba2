import { httpHandler } from '../../../shared/platform/http/handler';
import { replaceLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.replaceLegacyWebhook, replaceLegacyWebhook);
