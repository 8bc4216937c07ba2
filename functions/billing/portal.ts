import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, openCustomerPortal } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.openPortal, openCustomerPortal);
