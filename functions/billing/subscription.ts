import { httpHandler } from '../../shared/platform/http/handler';
import { getSubscription } from '../../shared/billing';

export const handler = httpHandler(getSubscription);
