import { httpHandler } from '../../shared/api-keys';
import { downloadReference, referenceRoutes } from '../../shared/reference';

export const handler = httpHandler(referenceRoutes.downloadReference, downloadReference);
