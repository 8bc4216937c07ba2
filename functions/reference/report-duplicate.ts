import { httpHandler } from '../../shared/api-keys';
import { referenceRoutes, reportDuplicate } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.reportDuplicate, reportDuplicate);
