import { httpHandler } from '../../shared/api-keys';
import { referenceRoutes, resolveDuplicateReport } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.resolveDuplicateReport, resolveDuplicateReport);
