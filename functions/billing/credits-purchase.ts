import { idempotentHttpHandler } from '../../shared/platform/http/idempotent-handler';
import { billingRoutes, purchaseCredits } from '../../shared/billing';

export const handler = idempotentHttpHandler(billingRoutes.purchaseCredits, purchaseCredits);
