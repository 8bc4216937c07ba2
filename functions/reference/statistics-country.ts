import { httpHandler } from '../../shared/api-keys';
import { referenceCountry, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceCountry, referenceCountry);
