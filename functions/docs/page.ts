import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { docsPage, docsRoutes } from '../../shared/docs';

export const handler = publicHttpHandler(docsRoutes.docsPage, docsPage);
