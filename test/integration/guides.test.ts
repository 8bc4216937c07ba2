/**
 * The guides as the API serves them (docs/guides/*.md at /docs/guides/{guide}, and their index):
 * under the console's Content-Security-Policy with nothing inline, and every link on them leading
 * somewhere real: a page of the API that answers, a heading that is on it, an operation that the
 * OpenAPI document has. Links out of the API are collected, never followed (no test talks to the
 * internet).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import { DOCS_FILES_DIR, GUIDE_NAMES } from '../../shared/docs';
import { startTestApi } from '../support/test-api';

const api = await startTestApi({ provision: false });
const origin = new URL(api.baseUrl).origin;

const PAGES = ['/docs/guides', ...GUIDE_NAMES.map((name) => `/docs/guides/${name}`)];

interface Page {
  path: string;
  status: number;
  html: string;
  /** What the page's relative links resolve against: its <base>. */
  base: URL;
  ids: Set<string>;
}

const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** A page as the checker reads it: its status, its tags' ids and its <base>. */
function readPage(path: string, status: number, html: string): Page {
  const url = new URL(path, origin);
  const baseHref = /<base href="([^"]*)">/.exec(html)?.[1];
  return {
    path,
    status,
    html,
    base: baseHref === undefined ? url : new URL(decodeEntities(baseHref), url),
    ids: new Set([...html.matchAll(/<[a-z][^>]*\sid="([^"]*)"/g)].map(([, id]) => decodeEntities(id!))),
  };
}

/** Every page fetched once, however many links lead to it. */
const fetched = new Map<string, Promise<Page>>();
function pageAt(path: string): Promise<Page> {
  let page = fetched.get(path);
  if (!page) {
    page = api.request('GET', path).then((answer) => readPage(path, answer.status, answer.text));
    fetched.set(path, page);
  }
  return page;
}

/** The URLs a page links to or loads (<a>, <link>, <img>, <script>), as written. */
function linksOf(html: string): string[] {
  return [...html.matchAll(/<(?:a|link|img|script)\s(?:[^>]*?\s)?(?:href|src)="([^"]*)"/g)].map(([, link]) => decodeEntities(link!));
}

let openApi: Promise<{ paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> }> | undefined;
/** `Tag/operationId` -> true, for every operation of the OpenAPI document (and `Tag` for each tag). */
async function referenceAnchors(): Promise<Set<string>> {
  openApi ??= api.request('GET', '/api/v1/openapi.json').then((answer) => answer.body);
  const anchors = new Set<string>();
  for (const operations of Object.values((await openApi).paths)) {
    for (const { operationId, tags = [] } of Object.values(operations)) {
      for (const tag of tags) {
        anchors.add(tag);
        if (operationId) anchors.add(`${tag}/${operationId}`);
      }
    }
  }
  return anchors;
}

/** Links out of the API, seen on the pages: listed, never fetched. */
const external = new Set<string>();

/** What is wrong with each of a page's links: `<page>: <link> (<why>)`; none when every one leads somewhere. */
async function brokenLinks(page: Page): Promise<string[]> {
  const broken: string[] = [];
  for (const link of linksOf(page.html)) {
    const target = new URL(link, page.base);
    const problem = await problemOf(target);
    if (problem) broken.push(`${page.path}: ${link} (${problem})`);
  }
  return broken;
}

async function problemOf(target: URL): Promise<string | undefined> {
  if (target.protocol === 'data:' || target.protocol === 'mailto:') return undefined;
  if (target.origin !== origin) {
    external.add(target.href);
    return /^https?:$/.test(target.protocol) ? undefined : `a ${target.protocol} link`;
  }
  const fragment = decodeURIComponent(target.hash.slice(1));
  const page = await pageAt(target.pathname);
  if (page.status !== 200) return `${target.pathname} answers ${page.status}`;
  if (!fragment) return undefined;
  if (target.pathname === '/docs' || target.pathname === '/docs/') {
    // Swagger UI's deep links: #/Tag or #/Tag/operationId, the tag's spaces as %20.
    return (await referenceAnchors()).has(fragment.replace(/^\//, '')) ? undefined : `the reference has no operation ${fragment}`;
  }
  return page.ids.has(fragment) ? undefined : `${target.pathname} has no id ${fragment}`;
}

describe('the guides at /docs/guides', () => {
  it("serves each guide and the index as a page with nothing inline, under the console's policy", async () => {
    for (const path of PAGES) {
      const answer = await api.request('GET', path);
      assert.equal(answer.status, 200, path);
      assert.match(answer.headers.get('content-type')!, /^text\/html/, path);
      const policy = answer.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'none'", "script-src 'self';", "style-src 'self';", "frame-ancestors 'none'"])
        assert.ok(policy.includes(directive), `${path}: ${directive}`);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      const html = answer.text;
      assert.match(html, /^<!doctype html>\n<html lang="en">/, path);
      assert.equal(html.match(/<title>[^<]+<\/title>/g)?.length, 1, `${path}: one title`);
      assert.equal(html.match(/<h1[\s>]/g)?.length, 1, `${path}: one h1`);
      assert.equal(html.match(/<main[\s>]/g)?.length, 1, `${path}: one main`);
      assert.ok(html.includes('<base href="/">'), path);
      assert.ok(html.includes('<link rel="stylesheet" href="docs/guides.css">'), path);
      // Markup comes from the renderer alone: Markdown text (code blocks included) is escaped, so every `<` here opens a real tag.
      const tags = [...html.matchAll(/<[a-z][^>]*>/g)].map(([tag]) => tag);
      assert.deepEqual(
        tags.filter((tag) => /^<style[\s>]|\sstyle=|\son[a-z]+=/.test(tag)),
        [],
        `${path}: no inline style or handler`,
      );
      assert.deepEqual(
        tags.filter((tag) => /^<script[\s>]/.test(tag) && !/\ssrc="/.test(tag)),
        [],
        `${path}: no inline script`,
      );
    }
  });

  it('links every guide and the reference from a bar on each page, the current one marked', async () => {
    for (const [path, current] of [
      ['/docs/guides', 'docs/guides'],
      ...GUIDE_NAMES.map((name) => [`/docs/guides/${name}`, `docs/guides/${name}`]),
    ] as const) {
      const { html } = await pageAt(path);
      const bar = /<nav aria-label="Documentation">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
      assert.deepEqual(linksOf(bar), ['docs/guides', ...GUIDE_NAMES.map((name) => `docs/guides/${name}`), 'docs'], path);
      assert.deepEqual(
        [...bar.matchAll(/<a href="([^"]+)" aria-current="page">/g)].map(([, href]) => href),
        [current],
        path,
      );
    }
  });

  it('answers 404 with {error, message} for a guide it does not have', async () => {
    for (const name of ['nope', 'partner.md', 'toString', '__proto__', 'Partner', '..%2Fpartner']) {
      const missing = await api.request('GET', `/docs/guides/${name}`);
      assert.equal(missing.status, 404, name);
      assert.deepEqual(Object.keys(missing.body).sort(), ['error', 'message'], name);
      assert.equal(missing.body.error, 'Not Found', name);
    }
    assert.equal((await api.request('POST', '/docs/guides/partner')).status, 405);
  });

  it("serves the docs pages' own files, and the reference page loads its viewer by path, nothing inline", async () => {
    const files = readdirSync(DOCS_FILES_DIR);
    assert.ok(files.includes('guides.css') && files.includes('swagger-init.js'), files.join(', '));
    for (const file of files) {
      const answer = await api.request('GET', `/docs/${file}`);
      assert.equal(answer.status, 200, file);
      assert.match(answer.headers.get('content-type')!, file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/, file);
    }
    const reference = await api.request('GET', '/docs');
    const scripts = [...reference.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, body]) => [
      attributes!.trim(),
      body,
    ]);
    assert.deepEqual(scripts, [
      ['src="docs/swagger-ui-bundle.js"', ''],
      ['src="docs/swagger-init.js"', ''],
    ]);
    assert.ok(linksOf(reference.text).includes('docs/guides'), 'the reference links the guides');
  });

  it('has no broken link: to a guide and its heading, to a heading on the same page, to the reference and its operations, to the style sheet', async () => {
    const pages = await Promise.all(PAGES.map(pageAt));
    // The guides link to one another, their own headings and the reference; the bar, the index and the style sheet add more.
    assert.ok(
      pages.flatMap((page) => linksOf(page.html)).filter((link) => !link.startsWith('http')).length >= 100,
      'the checker reads the links',
    );
    const broken = (await Promise.all(pages.map(brokenLinks))).flat();
    // Links out of the API are only listed: each a well-formed http(s) address.
    for (const link of external) assert.match(link, /^https?:\/\/[^/]+/);
    assert.deepEqual(broken, [], `Broken links on the guides' pages (${broken.length}):\n${broken.join('\n')}`);
  });

  it('the link checker sees a missing page, heading, operation and file', async () => {
    const { paths } = (await api.request('GET', '/api/v1/openapi.json')).body;
    const operation = Object.values<any>(paths)
      .flatMap((item) => Object.values<any>(item))
      .find((candidate) => candidate?.operationId && candidate.tags?.length);
    const tag = encodeURIComponent(operation.tags[0]);
    const page = readPage(
      '/docs/guides/planted',
      200,
      `<base href="/"><h1 id="here">x</h1>
<a href="docs/guides/operator#deploying">fine</a> <a href="docs/guides/planted#here">fine</a> <a href="docs#/${tag}/${operation.operationId}">fine</a>
<a href="https://example.com/x">out</a> <link rel="icon" href="data:,">
<a href="docs/guides/nowhere">1</a> <a href="docs/guides/operator#nowhere">2</a> <a href="docs/guides/planted#nowhere">3</a>
<a href="docs#/${tag}/noSuchOperation">4</a> <img src="docs/missing.png" alt="5">`,
    );
    fetched.set('/docs/guides/planted', Promise.resolve(page));
    try {
      assert.deepEqual(await brokenLinks(page), [
        '/docs/guides/planted: docs/guides/nowhere (/docs/guides/nowhere answers 404)',
        '/docs/guides/planted: docs/guides/operator#nowhere (/docs/guides/operator has no id nowhere)',
        '/docs/guides/planted: docs/guides/planted#nowhere (/docs/guides/planted has no id nowhere)',
        `/docs/guides/planted: docs#/${tag}/noSuchOperation (the reference has no operation /${operation.tags[0]}/noSuchOperation)`,
        '/docs/guides/planted: docs/missing.png (/docs/missing.png answers 404)',
      ]);
      assert.ok(external.has('https://example.com/x'));
    } finally {
      fetched.delete('/docs/guides/planted');
      external.delete('https://example.com/x');
    }
  });
});
