import { httpHandler } from '../../shared/platform/http/handler';
import { downloadReference } from '../../shared/reference';

export const handler = httpHandler(downloadReference);
