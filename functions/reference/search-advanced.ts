import { httpHandler } from '../../shared/platform/http/handler';
import { advancedSearchReference, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.advancedSearchReference, advancedSearchReference);
