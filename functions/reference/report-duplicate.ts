import { httpHandler } from '../../shared/platform/http/handler';
import { referenceRoutes, reportDuplicate } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.reportDuplicate, reportDuplicate);
