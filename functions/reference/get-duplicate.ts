import { httpHandler } from '../../shared/api-keys';
import { getDuplicateReport, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.getDuplicateReport, getDuplicateReport);
