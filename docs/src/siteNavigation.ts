/** One page of the site's navigation. `href` is relative to the site root. */
export interface NavigationEntry {
  readonly title: string;
  readonly href: string;
}

/** A guide: a markdown file under `docs/guides/`, rendered to `guides/<slug>.html`. */
export interface GuideEntry extends NavigationEntry {
  readonly slug: string;
  readonly source: string;
}

function guide(slug: string, title: string): GuideEntry {
  return { slug, title, source: `${slug}.md`, href: `guides/${slug}.html` };
}

/** Guides in reading order; the navigation and the browser test both walk this list. */
export const guideCatalogue: readonly GuideEntry[] = [
  guide('getting-started', 'Getting started with the client'),
  guide('authentication', 'Authentication'),
  guide('async-operations', 'Async operations and idempotency'),
  guide('billing-preflight', 'The billing preflight'),
  guide('conformance', 'Running the conformance suite'),
  guide('rule-catalogue', 'Rule catalogue'),
  guide('rule-matrix', 'Traceability matrix'),
  guide('unspecified', 'What the document leaves unspecified'),
];

export const homeEntry: NavigationEntry = { title: 'Home', href: 'index.html' };
export const referenceEntry: NavigationEntry = { title: 'API reference', href: 'reference/index.html' };

/** Every page of the navigation, in the order the sidebar shows them. */
export function navigationEntries(): readonly NavigationEntry[] {
  return [homeEntry, referenceEntry, ...guideCatalogue];
}

/** The relative prefix from a page at `pageHref` back to the site root (`''` or `'../'`). */
export function rootPrefix(pageHref: string): string {
  const depth = pageHref.split('/').length - 1;
  return '../'.repeat(depth);
}
