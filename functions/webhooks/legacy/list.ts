import { httpHandler } from '../../../shared/api-keys';
import { listLegacyWebhooks, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.listLegacyWebhooks, listLegacyWebhooks);
