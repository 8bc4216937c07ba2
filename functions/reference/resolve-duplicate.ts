import { httpHandler } from '../../shared/platform/http/handler';
import { resolveDuplicateReport } from '../../shared/reference';

export const handler = httpHandler(resolveDuplicateReport);
