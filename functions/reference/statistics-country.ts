import { httpHandler } from '../../shared/platform/http/handler';
import { referenceCountry } from '../../shared/reference';

export const handler = httpHandler(referenceCountry);
