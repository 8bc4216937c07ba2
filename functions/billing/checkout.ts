import { httpHandler } from '../../shared/platform/http/handler';
import { startCheckout } from '../../shared/billing';

export const handler = httpHandler(startCheckout);
