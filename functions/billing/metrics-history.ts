import { httpHandler } from '../../shared/api-keys';
import { billingRoutes, getMetricsHistory } from '../../shared/billing';

export const handler = httpHandler(billingRoutes.getMetricsHistory, getMetricsHistory);
