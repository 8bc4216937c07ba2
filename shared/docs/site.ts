/**
 * What the documentation pages share: the guides' names and the bar that links every page to the
 * others. Free of the Markdown renderer, so the reference page's bundle does not carry it.
 */

/** The guides of docs/guides/, by the name their page is served under (`<name>.md` -> `/docs/guides/<name>`), with their label in the bar. */
export const GUIDES = { partner: "Partner's guide", operator: "Operator's guide", contributor: "Contributor's guide" } as const;

export type GuideName = keyof typeof GUIDES;

export const GUIDE_NAMES = Object.keys(GUIDES) as GuideName[];

export const isGuideName = (name: string): name is GuideName => Object.hasOwn(GUIDES, name);

/** A page of the documentation: the guides' index, a guide, the API reference. */
export type DocsPageName = 'guides' | GuideName | 'reference';

/** The bar of links between the documentation pages; its links are paths under the page's `<base href="{basePath}/">`. */
export function docsBar(current: DocsPageName): string {
  const links: [DocsPageName, string, string][] = [
    ['guides', 'docs/guides', 'Guides'],
    ...GUIDE_NAMES.map((name): [DocsPageName, string, string] => [name, `docs/guides/${name}`, GUIDES[name]]),
    ['reference', 'docs', 'API reference'],
  ];
  return `<header class="docs-bar">
  <span class="docs-brand">Hotel Mapping</span>
  <nav aria-label="Documentation">
${links.map(([name, href, label]) => `    <a href="${href}"${name === current ? ' aria-current="page"' : ''}>${label}</a>`).join('\n')}
  </nav>
</header>`;
}
