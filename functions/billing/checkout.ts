import { idempotentHttpHandler } from '../../shared/platform/http/idempotent-handler';
import { billingRoutes, startCheckout } from '../../shared/billing';

export const handler = idempotentHttpHandler(billingRoutes.startCheckout, startCheckout);
