import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { billingRoutes, stripeWebhook } from '../../shared/billing';

export const handler = publicHttpHandler(billingRoutes.stripeWebhook, stripeWebhook);
