import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, purchaseCredits } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.purchaseCredits, purchaseCredits);
