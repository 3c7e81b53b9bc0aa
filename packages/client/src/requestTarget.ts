import type { ApiOperation } from '@cloud-api/types';
import { TokenEnvironmentError } from './errors.js';
import { type ExactRoute, exactRouteAlternatives, findOperation } from './operationIndex.js';
import { escapeRegExp } from './regExpText.js';

/** Where a request goes under the base URL: the path after it (`/compute/cloud-vms`) and the query. */
export interface RequestTarget {
  /** Path after the base URL, starting with `/`, as the URL parser sends it. */
  readonly path: string;
  /** Query string without its `?` (empty when there is none). */
  readonly query: string;
}

// A path and a query made only of these characters reach the server exactly as written: the URL
// parser removes no dot segment, turns no `\` into `/`, strips no whitespace and cuts no
// fragment. Anything else is read through the URL parser, which is what fetch sends.
// Those characters but `/` and `%`, as class text: the one-match reader below uses the same.
const PLAIN_PATH_CHARS = "A-Za-z0-9\\-_~!$&'()*+,;=:@";
const PLAIN_PATH = new RegExp(`^[${PLAIN_PATH_CHARS}/%]*$`);
const ESCAPED_DOT = /%2e/i;
const PLAIN_QUERY = /^[\x21\x22\x24-\x7e]*$/;

/**
 * Reads a request URL the way it will be sent and refuses one that left the bound base URL
 * (e.g. a per-call `baseUrl` pointing at the other environment, or a path that climbs out of
 * `/v1` with `..`), before the token is attached.
 */
export function requestTargetReader(
  baseUrl: string,
  environment: string,
): (method: string, url: string) => RequestTarget {
  const prefix = `${baseUrl}/`;
  const base = new URL(prefix);

  return (method, url) => {
    if (url.startsWith(prefix)) {
      const queryStart = url.indexOf('?', prefix.length);
      const path = url.slice(prefix.length - 1, queryStart < 0 ? undefined : queryStart);
      const query = queryStart < 0 ? '' : url.slice(queryStart + 1);
      if (PLAIN_PATH.test(path) && !ESCAPED_DOT.test(path) && PLAIN_QUERY.test(query)) return { path, query };
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (
      parsed !== undefined &&
      parsed.origin === base.origin &&
      parsed.username === '' &&
      parsed.password === '' &&
      parsed.pathname.startsWith(base.pathname)
    ) {
      return { path: parsed.pathname.slice(base.pathname.length - 1), query: parsed.search.slice(1) };
    }
    const shown = parsed === undefined ? 'an invalid URL' : `${parsed.origin}${parsed.pathname}`;
    throw new TokenEnvironmentError(
      `Refused to send ${method} ${shown}: this client's token is a ${environment} token ` +
        `and may only be sent under ${baseUrl}. Nothing was sent.`,
    );
  };
}

/** Where a request goes, read for the rules: path after the base URL, workspace and operation. */
export interface RuleTarget {
  readonly path: string;
  readonly workspaceId: string;
  /** The spec's operation, as `findOperation` finds it; `undefined` for a path the spec lacks. */
  readonly operation: ApiOperation | undefined;
}

// What a parameter segment of an exact route holds: the plain path characters but `/` and `%`.
const PLAIN_SEGMENT_CHAR = `[${PLAIN_PATH_CHARS}]`;

/**
 * Reads, in one match, the request nearly every call sends: the bound base URL, a path of the
 * plain characters above with no escaped dot, and a query that is exactly one canonical
 * `workspace_id`; and, in the same match, the route the path spells exactly. Every request this
 * reads gives the same path, workspace and operation as `requestTargetReader`, the rules'
 * workspace check and `findOperation` (a property in test/requestRules.test.ts); anything else
 * gives `undefined`, and those general readers decide. It exists because the rules run on every
 * request: one match costs less than reading the target, the query and the route separately.
 */
export function usualTargetReader(baseUrl: string): (method: string, url: string) => RuleTarget | undefined {
  const { source: routes, routes: routeOfGroup } = exactRouteAlternatives(PLAIN_SEGMENT_CHAR);
  const usual = new RegExp(
    `^${escapeRegExp(baseUrl)}(${routes}|/(?:[${PLAIN_PATH_CHARS}/]|%(?!2[eE]))*)\\?workspace_id=([1-9][0-9]*)$`,
  );
  const workspaceGroup = routeOfGroup.length + 2;
  return (method, url) => {
    const match = usual.exec(url);
    if (match === null) return undefined;
    const path = match[1] as string;
    let route: ExactRoute | undefined;
    for (let i = 0; i < routeOfGroup.length && route === undefined; i++) {
      if (match[i + 2] !== undefined) route = routeOfGroup[i];
    }
    // The route spelt exactly is the operation only with its own method; otherwise, ask.
    const operation = route?.method === method ? route.operation : findOperation(method, path);
    return { path, workspaceId: match[workspaceGroup] as string, operation };
  };
}
