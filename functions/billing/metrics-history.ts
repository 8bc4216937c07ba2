import { httpHandler } from '../../shared/platform/http/handler';
import { getMetricsHistory } from '../../shared/billing';

export const handler = httpHandler(getMetricsHistory);
