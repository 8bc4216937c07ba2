import { httpHandler } from '../../../shared/platform/http/handler';
import { getLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.getLegacyWebhook, getLegacyWebhook);
