import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getCreditBalance } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getCreditBalance, getCreditBalance);
