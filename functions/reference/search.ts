import { httpHandler } from '../../shared/api-keys';
import { referenceRoutes, searchReference } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.searchReference, searchReference);
