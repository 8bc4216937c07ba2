import { idempotentHttpHandler } from '../../../shared/platform/http/idempotent-handler';
import { createLegacyWebhook, legacyWebhookRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(legacyWebhookRoutes.createLegacyWebhook, createLegacyWebhook);
