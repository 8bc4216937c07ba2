import { httpHandler } from '../../shared/platform/http/handler';
import { openCustomerPortal } from '../../shared/billing';

export const handler = httpHandler(openCustomerPortal);
