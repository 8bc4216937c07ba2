import { httpHandler } from '../../../shared/api-keys';
import { rotateSigningSecret, subscriptionRoutes } from '../../../shared/webhooks';

export const handler = httpHandler(subscriptionRoutes.rotateSigningSecret, rotateSigningSecret);
