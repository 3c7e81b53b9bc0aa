/** Resources a browser would fetch from elsewhere: script/link/img/iframe sources on other hosts. */
const EXTERNAL_RESOURCE =
  /<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\/(?!localhost|127\.0\.0\.1)[^"'\s>]+/gi;

/** The tags of a page that would load something from another host; the site must render offline. */
export function findExternalResources(html: string): string[] {
  return [...html.matchAll(EXTERNAL_RESOURCE)].map((match) => match[0]);
}
