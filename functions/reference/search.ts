import { httpHandler } from '../../shared/platform/http/handler';
import { referenceRoutes, searchReference } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.searchReference, searchReference);
