import { httpHandler } from '../../shared/api-keys';
import { referenceCountryList, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceCountryList, referenceCountryList);
