import { httpHandler } from '../../shared/platform/http/handler';
import { listPlans } from '../../shared/billing';

export const handler = httpHandler(listPlans);
