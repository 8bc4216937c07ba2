import { idempotentHttpHandler } from '../../../shared/api-keys';
import { createLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(legacyWebhookRoutes.createLegacyWebhook, createLegacyWebhook);
