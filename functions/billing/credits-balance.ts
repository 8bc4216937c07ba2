import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getCreditBalance } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getCreditBalance, getCreditBalance);
