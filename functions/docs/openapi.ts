import { routes } from '../../shared/routes';
import { buildOpenApiDocument } from '../../shared/platform/http/openapi';
import { defineHandler } from '../../shared/platform/http/handler';

export const API_VERSION = '1.0.0';

// The document depends only on the route table: built once per container; only the server URL
// (how the caller reached the API) is per request.
let document: Record<string, unknown> | undefined;

export const handler = defineHandler(routes.openApiDocument, async ({ baseUrl }) => {
  document ??= buildOpenApiDocument(routes, { serverUrl: '', version: API_VERSION });
  return { status: 200, json: { ...document, servers: [{ url: baseUrl }] } };
});
