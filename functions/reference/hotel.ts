import { httpHandler } from '../../shared/api-keys';
import { referenceHotel, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceHotel, referenceHotel);
