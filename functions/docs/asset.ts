import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// The package's own locator: its folder locally, the bundle folder in Lambda (the stack copies
// the two files next to the bundle).
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import { routes } from '../../shared/routes';
import { notFound } from '../../shared/platform/errors';
import { defineHandler } from '../../shared/platform/http/handler';

const CONTENT_TYPES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};
const cache = new Map<string, string>();

export const handler = defineHandler(routes.docsAsset, async ({ params }) => {
  const { asset } = params;
  const contentType = CONTENT_TYPES[asset];
  if (!contentType) throw notFound(`No docs asset is named ${asset}.`);
  let text = cache.get(asset);
  if (text === undefined) {
    text = await readFile(join(swaggerUiPath(), asset), 'utf8');
    cache.set(asset, text);
  }
  return { status: 200, contentType, text, headers: { 'cache-control': 'public, max-age=86400' } };
});
