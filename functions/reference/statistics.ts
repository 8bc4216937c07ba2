import { httpHandler } from '../../shared/platform/http/handler';
import { referenceRoutes, referenceStatistics } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceStatistics, referenceStatistics);
