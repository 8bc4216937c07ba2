import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getCurrentMonthMetrics } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getCurrentMonthMetrics, getCurrentMonthMetrics);
