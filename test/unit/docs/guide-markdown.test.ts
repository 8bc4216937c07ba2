import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { guidePage, GUIDE_NAMES, guidesIndex } from '../../../shared/docs';
import { headingSlugger, renderGuide, servedHref } from '../../../shared/docs/guide-markdown';
import type { Runtime } from '../../../shared/platform/runtime';

describe('headingSlugger', () => {
  it("makes GitHub's ids: lower case, punctuation but - and _ dropped, each space a hyphen", () => {
    const slug = headingSlugger();
    assert.equal(slug('Billing, quota and metering'), 'billing-quota-and-metering');
    assert.equal(slug("Public routes are not one address's"), 'public-routes-are-not-one-addresss');
    assert.equal(slug('Retrying safely: Idempotency-Key'), 'retrying-safely-idempotency-key');
    assert.equal(slug('snake_case, C++ & (more)'), 'snake_case-c--more');
    assert.equal(slug('Über café 2'), 'über-café-2');
    assert.equal(slug('Deploy 🚀'), 'deploy-');
  });

  it('numbers a repeated id as GitHub does, in the order the headings come', () => {
    const slug = headingSlugger();
    assert.deepEqual(['Metrics', 'Metrics', 'Metrics-1', 'Metrics', 'Other'].map(slug), [
      'metrics',
      'metrics-1',
      'metrics-1-1',
      'metrics-2',
      'other',
    ]);
    assert.equal(headingSlugger()('Metrics'), 'metrics', 'each slugger counts on its own');
  });
});

describe('servedHref', () => {
  it('turns links between the guide files and to the reference into paths under the base path', () => {
    assert.equal(servedHref('operator.md', 'partner'), 'docs/guides/operator');
    assert.equal(servedHref('operator.md#the-edge', 'partner'), 'docs/guides/operator#the-edge');
    assert.equal(servedHref('./contributor.md#x', 'partner'), 'docs/guides/contributor#x');
    assert.equal(servedHref('../../docs', 'partner'), 'docs');
    assert.equal(servedHref('../../docs/', 'partner'), 'docs');
    assert.equal(servedHref('../../docs#/Mapping%20book/listBookEntries', 'partner'), 'docs#/Mapping%20book/listBookEntries');
  });

  it("gives a heading of the same page its page's path: under a <base>, #x alone would leave the page", () => {
    assert.equal(servedHref('#walk-through', 'partner'), 'docs/guides/partner#walk-through');
  });

  it('leaves addresses and other files as written', () => {
    for (const href of [
      'https://www.standardwebhooks.com/',
      'shared/mapping/README.md',
      'other.md',
      'partner.mdx',
      '../docs',
      'mailto:x@example.com',
    ]) {
      assert.equal(servedHref(href, 'partner'), href);
    }
  });
});

describe('renderGuide', () => {
  const markdown = `# A guide

What it is for: see [the other](operator.md#x) and [below](#the-end).

## What \`cdk destroy\` keeps

| a | b |
|---|---|
| 1 | 2 |

\`\`\`sh
echo "<b>"
\`\`\`

<script>alert(1)</script>

Inline <b onclick="x()">html</b> and <organizationId>.

## The end
`;
  const guide = renderGuide(markdown, 'partner');

  it('gives each heading its GitHub id, and names the title, the lead and the sections', () => {
    assert.equal(guide.title, 'A guide');
    assert.deepEqual(
      guide.headings.map(({ depth, id, text }) => [depth, id, text]),
      [
        [1, 'a-guide', 'A guide'],
        [2, 'what-cdk-destroy-keeps', 'What cdk destroy keeps'],
        [2, 'the-end', 'The end'],
      ],
    );
    assert.ok(guide.html.includes('<h2 id="what-cdk-destroy-keeps">What <code>cdk destroy</code> keeps</h2>'));
    assert.equal(
      guide.lead,
      '<p>What it is for: see <a href="docs/guides/operator#x">the other</a> and <a href="docs/guides/partner#the-end">below</a>.</p>\n',
    );
  });

  it('shows raw HTML as text, never as markup', () => {
    assert.doesNotMatch(guide.html, /<script|<b[\s>]|onclick="|<organizationId>/);
    assert.ok(guide.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(guide.html.includes('Inline &lt;b onclick=&quot;x()&quot;&gt;html&lt;/b&gt; and &lt;organizationId&gt;.'));
    assert.ok(guide.html.includes('echo &quot;&lt;b&gt;&quot;'));
  });

  it('wraps tables and code blocks in regions that scroll on their own and take the keyboard focus', () => {
    assert.match(guide.html, /<div class="scroll" tabindex="0">\n<table>/);
    assert.match(guide.html, /<pre tabindex="0"><code class="language-sh">/);
  });
});

describe('the guide pages', () => {
  const runtime = {} as Runtime;

  it('renders every guide with one h1, its title, and a <base> of the stage path', async () => {
    for (const name of GUIDE_NAMES) {
      const page = await guidePage(
        { baseUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod', params: { guide: name } } as Parameters<typeof guidePage>[0],
        runtime,
      );
      assert.equal(page.status, 200);
      const html = page.text!;
      assert.ok(html.includes('<base href="/prod/">'), name);
      assert.equal(html.match(/<h1[\s>]/g)?.length, 1, name);
      const h1 = /<h1 id="[^"]+">([^<]+)<\/h1>/.exec(html)![1]!;
      assert.ok(html.includes(`<title>${h1} · Hotel Mapping</title>`), name);
    }
    const index = await guidesIndex({ baseUrl: 'http://127.0.0.1:3000' } as Parameters<typeof guidesIndex>[0], runtime);
    for (const name of GUIDE_NAMES) assert.ok(index.text!.includes(`<a href="docs/guides/${name}">`), name);
  });

  it('refuses a name that is not a guide, inherited property names too', async () => {
    for (const name of ['nope', 'toString', '__proto__', 'partner.md']) {
      await assert.rejects(
        guidePage({ baseUrl: 'http://127.0.0.1:3000', params: { guide: name } } as Parameters<typeof guidePage>[0], runtime),
        { kind: 'not_found' },
        name,
      );
    }
  });
});
