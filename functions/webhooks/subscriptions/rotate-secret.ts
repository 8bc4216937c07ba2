import { httpHandler } from '../../../shared/platform/http/handler';
import { rotateSigningSecret, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.rotateSigningSecret, rotateSigningSecret);
