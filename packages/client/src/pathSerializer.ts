import { defaultPathSerializer } from 'openapi-fetch';

/** A URL template cut at its `{name}` placeholders: literal, name, literal, name, …, literal. */
type TemplateParts = readonly string[];

// openapi-fetch's own placeholder pattern, with the name captured.
const PLACEHOLDER = /\{([^{}]+)\}/g;
const CACHE_LIMIT = 256;

/** `{name}`; openapi-fetch reads `{name*}` as exploded, `{.name}` as label and `{;name}` as matrix style. */
const isSimpleStyle = (name: string) => !name.endsWith('*') && !name.startsWith('.') && !name.startsWith(';');

/**
 * openapi-fetch's `pathSerializer`, with the same output as its default serializer, for a
 * fraction of the work per call: openapi-fetch calls it with the base URL and the template (a
 * handful of distinct strings for one client), so each is cut into parts once and a call only
 * joins the parts with the encoded values. Anything the fast form does not cover (a label,
 * matrix or exploded placeholder, an array or object value, a missing value) goes to openapi-fetch's
 * own serializer, so the result is identical in every case (see test/pathSerializer.test.ts).
 */
export function cachedPathSerializer(): (pathname: string, params: Record<string, unknown>) => string {
  const templates = new Map<string, TemplateParts | null>();

  const partsOf = (pathname: string): TemplateParts | null => {
    let parts = templates.get(pathname);
    if (parts !== undefined) return parts;
    const cut = pathname.split(PLACEHOLDER);
    let simple = true;
    for (let i = 1; i < cut.length; i += 2) if (!isSimpleStyle(cut[i] as string)) simple = false;
    parts = simple ? cut : null;
    // Callers of `api` may send any string as the path; bound the memory it can take.
    if (templates.size >= CACHE_LIMIT) templates.clear();
    templates.set(pathname, parts);
    return parts;
  };

  return (pathname, params) => {
    const parts = partsOf(pathname);
    if (parts === null) return defaultPathSerializer(pathname, params);
    let url = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2) {
      const value = params[parts[i] as string];
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        return defaultPathSerializer(pathname, params);
      }
      url += encodeURIComponent(value) + (parts[i + 1] as string);
    }
    return url;
  };
}
