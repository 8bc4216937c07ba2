import { httpHandler } from '../../shared/platform/http/handler';
import { getCreditBalance } from '../../shared/billing';

export const handler = httpHandler(getCreditBalance);
