import { type NavigationEntry, navigationEntries, rootPrefix } from './siteNavigation.js';

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The sidebar shown on every guide page: every guide and the reference, current page marked. */
export function renderSidebar(currentHref: string): string {
  const prefix = rootPrefix(currentHref);
  const items = navigationEntries().map((entry: NavigationEntry) => {
    const current = entry.href === currentHref ? ' aria-current="page"' : '';
    return `<li><a href="${prefix}${entry.href}"${current}>${escapeHtml(entry.title)}</a></li>`;
  });
  return [
    '<nav class="site-nav" aria-label="Site">',
    `<a class="site-title" href="${prefix}index.html">Cloud API contract</a>`,
    `<ul>${items.join('')}</ul>`,
    '</nav>',
  ].join('\n');
}

/** The top bar of the reference page, whose body belongs to Redoc. */
export function renderTopBar(currentHref: string): string {
  const prefix = rootPrefix(currentHref);
  const items = navigationEntries().map((entry) => {
    const current = entry.href === currentHref ? ' aria-current="page"' : '';
    return `<a href="${prefix}${entry.href}"${current}>${escapeHtml(entry.title)}</a>`;
  });
  return `<nav class="site-topbar" aria-label="Site"><span class="site-title">Cloud API contract</span>${items.join('')}</nav>`;
}

export interface PageContent {
  readonly href: string;
  readonly title: string;
  readonly bodyHtml: string;
}

/** A complete, self-contained page: local stylesheet, no external resource of any kind. */
export function renderPage(page: PageContent): string {
  const prefix = rootPrefix(page.href);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Cloud API contract</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${prefix}assets/site.css">
</head>
<body>
<div class="site-layout">
${renderSidebar(page.href)}
<main class="site-main">
${page.bodyHtml}
</main>
</div>
</body>
</html>
`;
}
