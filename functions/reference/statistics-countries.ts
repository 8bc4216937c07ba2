import { httpHandler } from '../../shared/platform/http/handler';
import { referenceCountryList } from '../../shared/reference';

export const handler = httpHandler(referenceCountryList);
