import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { stripeWebhook } from '../../shared/billing';

export const handler = publicHttpHandler(stripeWebhook);
