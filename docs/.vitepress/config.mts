import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadOpenApiDocument, operationCatalogue } from '@cloud-api/spec';
import { type DefaultTheme, defineConfig } from 'vitepress';
import { focusableTablesPlugin } from '../src/focusableTablesPlugin.js';
import { gapTablesPlugin } from '../src/gapTablesPlugin.js';
import {
  referencePages,
  referenceSearchSections,
  type SearchSection,
} from '../src/reference/referencePages.js';
import { guideCatalogue, operationSlug, packageReferences } from '../src/siteNavigation.js';
import { apiReferenceDir, defaultSiteDir, docsPackageDir } from '../src/sitePaths.js';

const document = loadOpenApiDocument();
const referenceSections = new Map(
  referencePages(document).map((page) => [`reference/${page.slug}.md`, referenceSearchSections(page)]),
);

const guideItems: DefaultTheme.SidebarItem[] = guideCatalogue.map((guide) => ({
  text: guide.title,
  link: `/guides/${guide.slug}`,
}));

/** The reference sidebar: the overview, then the operations grouped by their tag. */
function referenceSidebar(): DefaultTheme.SidebarItem[] {
  const byTag = new Map<string, DefaultTheme.SidebarItem[]>();
  for (const operation of operationCatalogue(document)) {
    const items = byTag.get(operation.tag) ?? [];
    items.push({ text: operation.summary, link: `/reference/${operationSlug(operation.operationId)}` });
    byTag.set(operation.tag, items);
  }
  return [
    { text: 'API reference', items: [{ text: 'Overview', link: '/reference/' }] },
    ...[...byTag].map(([tag, items]) => ({ text: tag, items })),
  ];
}

/** The sidebar typedoc-vitepress-theme wrote next to a package's pages (none before TypeDoc ran). */
function packageSidebar(slug: string, title: string): DefaultTheme.SidebarItem[] {
  const file = join(apiReferenceDir, slug, 'typedoc-sidebar.json');
  const items = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[])
    : [];
  return [{ text: title, link: `/api/${slug}/`, items: items.map(expanded) }];
}

/**
 * Drops `collapsed`: a collapsible group is a role="button" holding links, which axe reports as
 * nested interactive controls; the package sidebars are short enough to stay open.
 */
function expanded(item: DefaultTheme.SidebarItem): DefaultTheme.SidebarItem {
  const { collapsed: _collapsed, items, ...rest } = item;
  return items ? { ...rest, items: items.map(expanded) } : rest;
}

export default defineConfig({
  title: 'Cloud API contract',
  description:
    'Contract toolchain of the Cloud Infrastructure Public API: reference, guides, client and conformance suite.',
  lang: 'en',
  // GitHub Pages serves the site under /<repository>/; docs.yml passes it, locally it is /.
  base: process.env.DOCS_BASE ?? '/',
  srcDir: docsPackageDir,
  outDir: defaultSiteDir,
  srcExclude: [
    'README.md',
    'reference/rule-matrix.md',
    'reference/rule-threats.md',
    'node_modules/**',
    'reports/**',
    'site/**',
  ],
  // `.html` URLs: served as files by any static server, GitHub Pages included.
  cleanUrls: false,
  lastUpdated: false,
  // Nothing is fetched from another host: no web fonts from a CDN (the theme's own are bundled).
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  markdown: {
    // GitHub's high-contrast themes: every token keeps 4.5:1 on the code background (axe checks it).
    theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
    config: (markdown) => {
      markdown.use(gapTablesPlugin(document));
      markdown.use(focusableTablesPlugin);
    },
  },
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/guides/getting-started', activeMatch: '^/guides/' },
      { text: 'API reference', link: '/reference/', activeMatch: '^/reference/' },
      ...packageReferences.map((reference) => ({
        text: reference.title,
        link: `/api/${reference.slug}/`,
        activeMatch: `^/api/${reference.slug}/`,
      })),
    ],
    sidebar: {
      '/guides/': [{ text: 'Guides', items: guideItems }],
      '/reference/': referenceSidebar(),
      ...Object.fromEntries(
        packageReferences.map((reference) => [
          `/api/${reference.slug}/`,
          packageSidebar(reference.slug, reference.title),
        ]),
      ),
    },
    outline: { level: [2, 3], label: 'On this page' },
    search: {
      provider: 'local',
      options: {
        miniSearch: {
          // Generated reference pages have no file for the indexer to read: index their text here.
          // VitePress falls back to its own splitting on `undefined` (`?? splitPageIntoSections`),
          // which its type does not admit, hence the cast.
          _splitIntoSections: ((file: string) =>
            referenceSections.get(file.slice(docsPackageDir.length).replace(/^\/+/, ''))) as unknown as (
            file: string,
            html: string,
          ) => SearchSection[],
        },
      },
    },
    docFooter: { prev: 'Previous', next: 'Next' },
  },
});
