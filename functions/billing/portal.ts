import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, openCustomerPortal } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.openPortal, openCustomerPortal);
