import { httpHandler } from '../../shared/platform/http/handler';
import { referenceCountry, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceCountry, referenceCountry);
