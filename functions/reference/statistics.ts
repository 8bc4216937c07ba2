import { httpHandler } from '../../shared/api-keys';
import { referenceRoutes, referenceStatistics } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.referenceStatistics, referenceStatistics);
