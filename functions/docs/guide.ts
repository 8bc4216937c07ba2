import { docsRoutes, guidePage } from '../../shared/docs';
import { publicHttpHandler } from '../../shared/platform/http/public-handler';

export const handler = publicHttpHandler(docsRoutes.guidePage, guidePage);
