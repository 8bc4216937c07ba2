/**
 * The review console: one HTML page and its plain ES modules and style sheet, served from the
 * folder `page/` (beside the bundle in Lambda: the stack copies it there). The page holds no data:
 * it calls the public API with the key a person typed, kept in the tab's sessionStorage only.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { basePathOf, PAGE_SECURITY_HEADERS } from '../platform/http/pages';
import type { consoleRoutes } from './routes';

/** The page's files: `page/` beside this module, or beside the bundle in Lambda (CommonJS, where __dirname is the bundle's folder). */
export const CONSOLE_FILES_DIR =
  typeof __dirname === 'string' ? join(__dirname, 'console') : fileURLToPath(new URL('./page/', import.meta.url));

/** Every URL is a path under the API's base path (a <base> without a host), as the docs page does. */
export const consolePage: Implementation<typeof consoleRoutes.consolePage> = async ({ baseUrl }) => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  headers: { ...PAGE_SECURITY_HEADERS, 'cache-control': 'no-cache' },
  text: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Review console · Hotel Mapping</title>
  <base href="${basePathOf(baseUrl)}/">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="console/console.css">
${modules()
  .map((file) => `  <link rel="modulepreload" href="console/${file}">`)
  .join('\n')}
  <script type="module" src="console/app.js"></script>
</head>
<body>
  <header class="bar">
    <span class="brand">Hotel Mapping · Review console</span>
    <nav aria-label="Sections" id="sections" hidden>
      <a href="console#/jobs">Jobs</a>
      <a href="console#/book">Mapping book</a>
      <button type="button" id="sign-out">Sign out</button>
    </nav>
  </header>
  <div id="notice" role="alert" aria-live="assertive"></div>
  <main id="main" tabindex="-1"><p>Loading…</p></main>
</body>
</html>
`,
});

const CONTENT_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
let files: string[] | undefined;
let served: Map<string, Promise<string>> | undefined;

/** The page's files, as named in its folder. */
const pageFiles = () => (files ??= readdirSync(CONSOLE_FILES_DIR).filter((file) => /^[a-z-]+\.(js|css)$/.test(file)));
/** Its modules: the page names them all up front, so the browser fetches them at once rather than import by import. */
const modules = () => pageFiles().filter((file) => file.endsWith('.js'));

export const consoleAsset: Implementation<typeof consoleRoutes.consoleAsset> = async ({ params }) => {
  served ??= new Map(pageFiles().map((file) => [file, readFile(join(CONSOLE_FILES_DIR, file), 'utf8')]));
  const text = served.get(params.asset);
  if (!text) throw notFound(`The console has no file named ${params.asset}.`);
  return {
    status: 200,
    contentType: CONTENT_TYPES[params.asset.split('.').pop()!]!,
    text: await text,
    headers: { ...PAGE_SECURITY_HEADERS, 'cache-control': 'no-cache' },
  };
};
