import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, startCheckout } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.startCheckout, startCheckout);
