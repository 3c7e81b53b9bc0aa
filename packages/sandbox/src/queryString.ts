export type ParsedQuery =
  | {
      readonly ok: true;
      readonly values: ReadonlyMap<string, string>;
      readonly duplicated: ReadonlySet<string>;
      /** The last value of each name given more than once (the parameter-pollution fault reads it). */
      readonly lastValues: ReadonlyMap<string, string>;
    }
  | { readonly ok: false; readonly detail: string };

const EMPTY: ParsedQuery = { ok: true, values: new Map(), duplicated: new Set(), lastValues: new Map() };

/** Parses `a=1&b=2` keeping the first value of each name and noting names given twice. */
export function parseQueryString(query: string): ParsedQuery {
  if (query === '') return EMPTY;
  const values = new Map<string, string>();
  const lastValues = new Map<string, string>();
  let duplicated: Set<string> | undefined;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined) {
      return { ok: false, detail: 'The query string is not valid percent-encoding (UTF-8).' };
    }
    if (values.has(name)) {
      duplicated ??= new Set();
      duplicated.add(name);
      lastValues.set(name, value);
    } else {
      values.set(name, value);
    }
  }
  return { ok: true, values, duplicated: duplicated ?? EMPTY_SET, lastValues };
}

const EMPTY_SET: ReadonlySet<string> = new Set();

function decodeComponent(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}
