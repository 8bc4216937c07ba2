import { httpHandler } from '../../shared/platform/http/handler';
import { downloadReference, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.downloadReference, downloadReference);
