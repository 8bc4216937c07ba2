import { httpHandler } from '../../shared/api-keys';
import { advancedSearchReference, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.advancedSearchReference, advancedSearchReference);
