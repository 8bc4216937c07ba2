import { httpHandler } from '../../../shared/api-keys';
import { deleteLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.deleteLegacyWebhook, deleteLegacyWebhook);
