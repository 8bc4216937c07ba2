import { httpHandler } from '../../shared/platform/http/handler';
import { referenceCountryList, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceCountryList, referenceCountryList);
