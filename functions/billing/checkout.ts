import { idempotentHttpHandler } from '../../shared/api-keys';
import { billingRoutes, startCheckout } from '../../shared/billing';

export const handler = idempotentHttpHandler(billingRoutes.startCheckout, startCheckout);
