import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getCurrentMonthMetrics } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getCurrentMonthMetrics, getCurrentMonthMetrics);
