import { httpHandler } from '../../shared/platform/http/handler';
import { referenceHotel } from '../../shared/reference';

export const handler = httpHandler(referenceHotel);
