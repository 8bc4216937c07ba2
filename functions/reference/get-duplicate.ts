import { httpHandler } from '../../shared/platform/http/handler';
import { getDuplicateReport } from '../../shared/reference';

export const handler = httpHandler(getDuplicateReport);
