import { docsRoutes, openApiDocument } from '../../shared/docs';
import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { routes } from '../../shared/routes';

export const handler = publicHttpHandler(docsRoutes.openApiDocument, openApiDocument(routes));
