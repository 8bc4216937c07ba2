import { httpHandler } from '../../shared/platform/http/handler';
import { referenceHotel, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceHotel, referenceHotel);
