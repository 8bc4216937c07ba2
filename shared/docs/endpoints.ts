/** The API reference: the OpenAPI document generated from the route table, and Swagger UI over it. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// The package's own locator: its folder locally, the bundle folder in Lambda (the stack copies
// the two files next to the bundle).
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { buildOpenApiDocument, type WebhookDescription } from '../platform/http/openapi';
import type { RouteDefinition } from '../platform/http/route';
import { docsRoutes } from './routes';

export const API_VERSION = '1.0.0';

/** The document of the given route table (the function file passes the whole table). */
export function openApiDocument(
  routes: Readonly<Record<string, RouteDefinition>>,
  webhooks?: Readonly<Record<string, WebhookDescription>>,
): Implementation<typeof docsRoutes.openApiDocument> {
  // The document depends only on the route table: built once per container; only the server URL
  // (how the caller reached the API) is per request.
  let document: Record<string, unknown> | undefined;
  return async ({ baseUrl }) => {
    document ??= buildOpenApiDocument(routes, { serverUrl: '', version: API_VERSION, webhooks });
    return { status: 200, json: { ...document, servers: [{ url: baseUrl }] } };
  };
}

/** Swagger UI over the generated document; its files come from docsAsset, never a CDN. */
export const docsPage: Implementation<typeof docsRoutes.docsPage> = async ({ baseUrl }) => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  text: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Hotel Mapping API reference</title>
  <link rel="stylesheet" href="${baseUrl}/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${baseUrl}/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '${baseUrl}/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
  </script>
</body>
</html>
`,
});

const CONTENT_TYPES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};
const assetCache = new Map<string, string>();

export const docsAsset: Implementation<typeof docsRoutes.docsAsset> = async ({ params }) => {
  const { asset } = params;
  const contentType = CONTENT_TYPES[asset];
  if (!contentType) throw notFound(`No docs asset is named ${asset}.`);
  let text = assetCache.get(asset);
  if (text === undefined) {
    text = await readFile(join(swaggerUiPath(), asset), 'utf8');
    assetCache.set(asset, text);
  }
  return { status: 200, contentType, text, headers: { 'cache-control': 'public, max-age=86400' } };
};
