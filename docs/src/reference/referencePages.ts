import { type OpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { operationSlug } from '../siteNavigation.js';
import { operationPage } from './operationPage.js';
import { referenceIndexPage } from './referenceIndex.js';

/** A generated page of the API reference: `reference/<slug>.md`, served as `<slug>.html`. */
export interface ReferencePage {
  readonly slug: string;
  readonly markdown: string;
}

/** The overview and one page per operation of the bundled spec. */
export function referencePages(document: OpenApiDocument): ReferencePage[] {
  return [
    { slug: 'index', markdown: referenceIndexPage(document) },
    ...operationCatalogue(document).map((operation) => ({
      slug: operationSlug(operation.operationId),
      markdown: operationPage(operation, document),
    })),
  ];
}

/** One entry of VitePress's local search index. */
export interface SearchSection {
  readonly anchor: string;
  readonly titles: string[];
  readonly text: string;
}

function plainText(markdown: string): string {
  return markdown
    .replace(/<[^>]+>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*|:#]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The id VitePress gives a plain-text heading (`Request samples` → `request-samples`). */
function headingAnchor(heading: string): string {
  const slug = heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return /^\d/.test(slug) ? `_${slug}` : slug;
}

/**
 * Search sections of a generated reference page. VitePress's local search reads each page's
 * file from disk, and a dynamic route has no file of its own, so without these the reference
 * would be missing from search. One section per `##` heading, titled by the page's `#` title.
 */
export function referenceSearchSections(page: ReferencePage): SearchSection[] {
  const [head = '', ...parts] = page.markdown.split(/^## /m);
  const title = /^# (.+)$/m.exec(head)?.[1]?.trim() ?? page.slug;
  return [
    { anchor: '', titles: [title], text: plainText(head.replace(/^# .+$/m, '')) },
    ...parts.map((part) => {
      const heading = part.slice(0, part.indexOf('\n')).trim();
      return {
        anchor: headingAnchor(heading),
        titles: [title, heading],
        text: plainText(part.slice(heading.length)),
      };
    }),
  ];
}
