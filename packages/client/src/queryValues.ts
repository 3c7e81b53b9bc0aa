/**
 * The values of one parameter in a URL's query string, decoded exactly as
 * `new URLSearchParams(query).getAll(name)` would decode them.
 */
export function queryValues(url: string, name: string): string[] {
  const start = url.indexOf('?');
  return start < 0 ? [] : queryStringValues(url.slice(start + 1), name);
}

/**
 * The values of one parameter in a query string (without its leading `?`), decoded as
 * URLSearchParams decodes them.
 *
 * Every request passes through here, so the usual query (`workspace_id=1042`, nothing escaped)
 * is read by splitting the string; a query containing `%` or `+` needs decoding, and one starting
 * with another `?` (which URLSearchParams drops), so both are left to URLSearchParams.
 */
export function queryStringValues(query: string, name: string): string[] {
  if (query.includes('%') || query.includes('+') || query.startsWith('?'))
    return new URLSearchParams(query).getAll(name);
  const values: string[] = [];
  for (const pair of query.split('&')) {
    const separator = pair.indexOf('=');
    const key = separator < 0 ? pair : pair.slice(0, separator);
    if (key === name) values.push(separator < 0 ? '' : pair.slice(separator + 1));
  }
  return values;
}
