import { httpHandler } from '../../shared/platform/http/handler';
import { sendTestEvent, subscriptionRoutes } from '../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.sendTestEvent, sendTestEvent);
