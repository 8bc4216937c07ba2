import { idempotentHttpHandler } from '../../../shared/platform/http/idempotent-handler';
import { sendTestEvent, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(subscriptionRoutes.sendTestEvent, sendTestEvent);
