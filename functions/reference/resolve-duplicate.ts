import { httpHandler } from '../../shared/platform/http/handler';
import { referenceRoutes, resolveDuplicateReport } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.resolveDuplicateReport, resolveDuplicateReport);
