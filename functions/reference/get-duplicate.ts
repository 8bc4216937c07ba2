import { httpHandler } from '../../shared/platform/http/handler';
import { getDuplicateReport, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.getDuplicateReport, getDuplicateReport);
