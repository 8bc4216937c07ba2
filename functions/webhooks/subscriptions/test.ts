import { idempotentHttpHandler } from '../../../shared/api-keys';
import { sendTestEvent, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = idempotentHttpHandler(subscriptionRoutes.sendTestEvent, sendTestEvent);
