import { httpHandler } from '../../shared/platform/http/handler';
import { reportDuplicate } from '../../shared/reference';

export const handler = httpHandler(reportDuplicate);
