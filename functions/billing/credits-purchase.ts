import { idempotentHttpHandler } from '../../shared/api-keys';
import { billingRoutes, purchaseCredits } from '../../shared/billing';

export const handler = idempotentHttpHandler(billingRoutes.purchaseCredits, purchaseCredits);
