import { httpHandler } from '../../shared/platform/http/handler';
import { referenceStatistics } from '../../shared/reference';

export const handler = httpHandler(referenceStatistics);
