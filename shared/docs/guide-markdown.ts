/**
 * A guide's Markdown as the HTML of its page (marked, GitHub-flavoured). The guides are written to
 * read on a repository host too, so the page keeps that host's heading ids (`#anchors` work the
 * same in both places) and turns the links between files into links between the served pages.
 * Raw HTML in the Markdown shows as text: the guides hold none on purpose, and a page under a
 * strict Content-Security-Policy takes its markup from the renderer alone.
 */
import { Marked, Renderer, type Tokens } from 'marked';
import { GUIDE_NAMES, type GuideName } from './site';

export interface GuideHeading {
  depth: number;
  id: string;
  /** The heading as plain text (code spans and emphasis reduced to their words). */
  text: string;
}

export interface RenderedGuide {
  /** The text of its one `#` heading. */
  title: string;
  /** Its first paragraph, rendered: what the guide is for, as the guides' index shows it. */
  lead: string;
  headings: GuideHeading[];
  html: string;
}

/**
 * GitHub's heading ids, as github-slugger makes them: lower case, every character but letters,
 * marks, digits, connector punctuation (`_`), spaces and hyphens dropped, each space a hyphen; a
 * repeated id gets `-1`, `-2`, … in the order the headings come.
 */
export function headingSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let slug = base;
    while (seen.has(slug)) {
      const repeats = seen.get(base)! + 1;
      seen.set(base, repeats);
      slug = `${base}-${repeats}`;
    }
    seen.set(slug, 0);
    return slug;
  };
}

const GUIDE_FILE = new RegExp(`^(?:\\./)?(${GUIDE_NAMES.join('|')})\\.md(#.*)?$`);
/** The reference page as a guide in docs/guides/ reaches it in the repository layout. */
const REFERENCE = /^\.\.\/\.\.\/docs\/?(#.*)?$/;

/**
 * A link of `guide` as its served page names it, a path under `<base href="{basePath}/">`:
 * `operator.md#x` -> `docs/guides/operator#x`, `../../docs#/Tag/op` -> `docs#/Tag/op`. A fragment
 * alone gets its own page's path too: under a `<base>`, `#x` would lead to the base itself.
 * Anything else (an address, another file) is left as written.
 */
export function servedHref(href: string, guide: GuideName): string {
  if (href.startsWith('#')) return `docs/guides/${guide}${href}`;
  const toGuide = GUIDE_FILE.exec(href);
  if (toGuide) return `docs/guides/${toGuide[1]}${toGuide[2] ?? ''}`;
  const toReference = REFERENCE.exec(href);
  if (toReference) return `docs${toReference[1] ?? ''}`;
  return href;
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

/** marked's renderer with ids on headings, served links, and tables and code blocks that scroll on their own (by keyboard too) on a narrow screen. */
class GuideRenderer extends Renderer {
  readonly headings: GuideHeading[] = [];
  lead: string | undefined;
  private readonly slug = headingSlugger();

  constructor(private readonly guide: GuideName) {
    super();
  }

  override heading(token: Tokens.Heading): string {
    const text = this.parser.parseInline(token.tokens, this.parser.textRenderer);
    const id = this.slug(text);
    this.headings.push({ depth: token.depth, id, text });
    return `<h${token.depth} id="${id}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
  }

  override link(token: Tokens.Link): string {
    return super.link({ ...token, href: servedHref(token.href, this.guide) });
  }

  override html(token: Tokens.HTML | Tokens.Tag): string {
    return escapeHtml(token.text);
  }

  override paragraph(token: Tokens.Paragraph): string {
    const html = super.paragraph(token);
    this.lead ??= html;
    return html;
  }

  override table(token: Tokens.Table): string {
    return `<div class="scroll" tabindex="0">\n${super.table(token)}</div>\n`;
  }

  override code(token: Tokens.Code): string {
    return super.code(token).replace(/^<pre>/, '<pre tabindex="0">');
  }
}

/** The page of `guide` from its Markdown. */
export function renderGuide(markdown: string, guide: GuideName): RenderedGuide {
  const renderer = new GuideRenderer(guide);
  // As parse options, not through use(): use() would copy the renderer's methods and drop its state.
  const html = new Marked().parse(markdown, { gfm: true, async: false, renderer });
  return {
    title: renderer.headings.find((heading) => heading.depth === 1)?.text ?? guide,
    lead: renderer.lead ?? '',
    headings: renderer.headings,
    html,
  };
}
