import { httpHandler } from '../../shared/platform/http/handler';
import { getCurrentMonthMetrics } from '../../shared/billing';

export const handler = httpHandler(getCurrentMonthMetrics);
