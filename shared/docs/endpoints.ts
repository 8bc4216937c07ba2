/** The API reference: the OpenAPI document generated from the route table, and Swagger UI over it. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The package's own locator: its folder locally, the bundle folder in Lambda (the stack copies
// the two files next to the bundle).
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { basePathOf } from '../platform/http/pages';
import { buildOpenApiDocument, type ApiInfo, type WebhookDescription } from '../platform/http/openapi';
import type { AnySchema, RouteDefinition } from '../platform/http/route';
import { docsRoutes } from './routes';
import { docsBar } from './site';

export const API_VERSION = '1.0.0';

export const API_INFO: ApiInfo = {
  title: 'Hotel Mapping and Billing API',
  version: API_VERSION,
  description:
    'Maps partner hotel inventories to a canonical reference inventory. Every error answers ' +
    '`{"error": "<status name>", "message": "<readable text>"}`. Beyond what each operation lists: a path the API does ' +
    'not have answers 404, and a method a path does not take answers 405 with an `Allow` header naming the ones it does.',
  contact: { name: 'Hotel Mapping API support (through your account manager)' },
  // An SPDX reference to a licence of one's own: partners use the API under their service agreement.
  license: { name: 'Proprietary: for partners under their service agreement', identifier: 'LicenseRef-Proprietary' },
};

/** The document of the given route table (the function file passes the whole table). */
/** What the reference documents: the routes, the webhooks, the tags' descriptions and the shared schemas. */
export interface ApiReference {
  routes: Readonly<Record<string, RouteDefinition>>;
  webhooks?: Readonly<Record<string, WebhookDescription>>;
  tags?: Readonly<Record<string, string>>;
  schemas?: Readonly<Record<string, AnySchema>>;
}

/** The API's OpenAPI document, but for its servers (how the caller reached the API). */
export function referenceDocument(reference: ApiReference): Record<string, unknown> {
  return buildOpenApiDocument(reference.routes, {
    serverUrl: '',
    info: API_INFO,
    webhooks: reference.webhooks,
    tags: reference.tags,
    schemas: reference.schemas,
  });
}

export function openApiDocument(reference: ApiReference): Implementation<typeof docsRoutes.openApiDocument> {
  // The document depends only on the route table: built once per container; only the server URL
  // (how the caller reached the API) is per request.
  let document: Record<string, unknown> | undefined;
  return async ({ baseUrl }) => {
    document ??= referenceDocument(reference);
    // A path, not an address: "Try it out" calls the host the document was loaded from (localhost, a tunnel, a custom domain).
    return { status: 200, json: { ...document, servers: [{ url: basePathOf(baseUrl) || '/' }] } };
  };
}

/**
 * Swagger UI over the generated document, under the bar that links the guides; its files come from
 * docsAsset, never a CDN, and nothing is inline. Every URL is a path under the API's base path (a
 * <base> without a host), so the page works from whatever address it was opened through:
 * 127.0.0.1, localhost, a tunnel, a custom domain, `/docs/`.
 */
export const docsPage: Implementation<typeof docsRoutes.docsPage> = async ({ baseUrl }) => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  text: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Hotel Mapping API reference</title>
  <base href="${basePathOf(baseUrl)}/">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="stylesheet" href="docs/guides.css">
</head>
<body>
${docsBar('reference')}
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-init.js"></script>
</body>
</html>
`,
});

/** The docs' own files: `page/` beside this module, or `docs/` beside the bundle in Lambda (CommonJS, where __dirname is the bundle's folder; the stack copies them there). */
export const DOCS_FILES_DIR = typeof __dirname === 'string' ? join(__dirname, 'docs') : fileURLToPath(new URL('./page/', import.meta.url));

const SCRIPT = 'text/javascript; charset=utf-8';
const STYLE_SHEET = 'text/css; charset=utf-8';
/** Every file docsAsset serves: swagger-ui's (the package's own locator finds them) and the docs' own. */
const ASSETS: Readonly<Record<string, { contentType: string; folder: () => string }>> = {
  'swagger-ui-bundle.js': { contentType: SCRIPT, folder: swaggerUiPath },
  'swagger-ui.css': { contentType: STYLE_SHEET, folder: swaggerUiPath },
  'swagger-init.js': { contentType: SCRIPT, folder: () => DOCS_FILES_DIR },
  'guides.css': { contentType: STYLE_SHEET, folder: () => DOCS_FILES_DIR },
};
const assetCache = new Map<string, string>();

export const docsAsset: Implementation<typeof docsRoutes.docsAsset> = async ({ params }) => {
  const { asset } = params;
  const served = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined;
  if (!served) throw notFound(`No docs asset is named ${asset}.`);
  let text = assetCache.get(asset);
  if (text === undefined) {
    text = await readFile(join(served.folder(), asset), 'utf8');
    assetCache.set(asset, text);
  }
  return { status: 200, contentType: served.contentType, text, headers: { 'cache-control': 'public, max-age=86400' } };
};
