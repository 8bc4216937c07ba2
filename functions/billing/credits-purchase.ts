import { httpHandler } from '../../shared/platform/http/handler';
import { purchaseCredits } from '../../shared/billing';

export const handler = httpHandler(purchaseCredits);
