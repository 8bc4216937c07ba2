import { httpHandler } from '../../../shared/platform/http/handler';
import { listLegacyWebhooks, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.listLegacyWebhooks, listLegacyWebhooks);
