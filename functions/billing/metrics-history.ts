import { httpHandler } from '../../shared/platform/http/handler';
import { billingRoutes, getMetricsHistory } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getMetricsHistory, getMetricsHistory);
