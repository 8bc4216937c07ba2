/**
 * The guides (docs/guides/*.md) as pages of the API, beside the reference: each rendered once per
 * container (guide-markdown.ts), under the console's Content-Security-Policy, with nothing inline:
 * the one style sheet is docs/guides.css, served by docsAsset.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { basePathOf, PAGE_SECURITY_HEADERS } from '../platform/http/pages';
import { escapeHtml, renderGuide, type RenderedGuide } from './guide-markdown';
import type { docsRoutes } from './routes';
import { docsBar, GUIDE_NAMES, isGuideName, type DocsPageName, type GuideName } from './site';

/** The guides' Markdown: the repository's docs/guides/, or `guides/` beside the bundle in Lambda (CommonJS, where __dirname is the bundle's folder; the stack copies them there). */
export const GUIDES_DIR =
  typeof __dirname === 'string' ? join(__dirname, 'guides') : fileURLToPath(new URL('../../docs/guides/', import.meta.url));

const rendered = new Map<GuideName, Promise<RenderedGuide>>();

/** The guide's page, rendered at its first request in this container (the files change only with a deployment). */
function renderedGuide(guide: GuideName): Promise<RenderedGuide> {
  let page = rendered.get(guide);
  if (!page) {
    page = readFile(join(GUIDES_DIR, `${guide}.md`), 'utf8').then((markdown) => renderGuide(markdown, guide));
    // A failed read is tried again by the next request, not remembered.
    page.catch(() => rendered.delete(guide));
    rendered.set(guide, page);
  }
  return page;
}

/** A documentation page around `main`; every URL is a path under the API's base path, as the reference page's. */
function docsHtml(options: { baseUrl: string; title: string; current: DocsPageName; main: string }) {
  return {
    status: 200 as const,
    contentType: 'text/html; charset=utf-8',
    headers: { ...PAGE_SECURITY_HEADERS, 'cache-control': 'no-cache' },
    text: `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(options.title)} · Hotel Mapping</title>
  <base href="${basePathOf(options.baseUrl)}/">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="docs/guides.css">
</head>
<body class="guide-page">
${docsBar(options.current)}
<main>
${options.main}
</main>
</body>
</html>
`,
  };
}

export const guidesIndex: Implementation<typeof docsRoutes.guidesIndex> = async ({ baseUrl }) => {
  const guides = await Promise.all(GUIDE_NAMES.map(async (name) => ({ name, guide: await renderedGuide(name) })));
  const sections = guides.map(
    ({ name, guide }) => `<section aria-labelledby="${name}">
<h2 id="${name}"><a href="docs/guides/${name}">${escapeHtml(guide.title)}</a></h2>
${guide.lead}<ul>
${guide.headings
  .filter((heading) => heading.depth === 2)
  .map((heading) => `<li><a href="docs/guides/${name}#${heading.id}">${escapeHtml(heading.text)}</a></li>`)
  .join('\n')}
</ul>
</section>`,
  );
  return docsHtml({
    baseUrl,
    title: 'Guides',
    current: 'guides',
    main: `<h1 id="guides">Hotel Mapping API guides</h1>
<p>How to integrate with the service, run it and change it. Every operation, with its parameters, bodies and errors, is in the
<a href="docs">API reference</a>, drawn from the <a href="api/v1/openapi.json">OpenAPI document</a> that clients are generated from.</p>
${sections.join('\n')}`,
  });
};

export const guidePage: Implementation<typeof docsRoutes.guidePage> = async ({ baseUrl, params }) => {
  if (!isGuideName(params.guide)) throw notFound(`No guide is named ${params.guide}: the guides are ${GUIDE_NAMES.join(', ')}.`);
  const guide = await renderedGuide(params.guide);
  return docsHtml({ baseUrl, title: guide.title, current: params.guide, main: guide.html });
};
