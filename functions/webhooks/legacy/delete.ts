import { httpHandler } from '../../../shared/platform/http/handler';
import { deleteLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.deleteLegacyWebhook, deleteLegacyWebhook);
