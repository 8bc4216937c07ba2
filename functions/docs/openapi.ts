import { routes } from '../../shared/api/routes';
import { buildOpenApiDocument } from '../../shared/api/openapi';
import { defineHandler } from '../../shared/http/handler';

export const API_VERSION = '1.0.0';

export const handler = defineHandler(routes.openApiDocument, async ({ baseUrl }) => ({
  status: 200,
  json: buildOpenApiDocument(routes, { serverUrl: baseUrl, version: API_VERSION }),
}));
