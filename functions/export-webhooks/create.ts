import { httpHandler } from '../../shared/platform/http/handler';
import { createLegacyWebhook, legacyWebhookRoutes } from '../../shared/webhooks';

export const handler = httpHandler(legacyWebhookRoutes.createLegacyWebhook, createLegacyWebhook);
