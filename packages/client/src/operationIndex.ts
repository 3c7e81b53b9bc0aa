import { type ApiOperation, apiOperations } from '@cloud-api/types';
import { escapeRegExp } from './regExpText.js';

/** One operation's path template, split into segments: a literal, or `null` for a `{parameter}`. */
interface Route {
  readonly method: string;
  readonly segments: readonly (string | null)[];
  readonly operation: ApiOperation;
}

/**
 * Segment count → routes, the ones with more literal segments first, so a literal segment wins
 * over a parameter when two templates could match the same path.
 */
const routesBySegmentCount = new Map<number, Route[]>();
for (const operation of Object.values(apiOperations)) {
  const segments = operation.path
    .split('/')
    .slice(1)
    .map((segment) => (/^\{[^{}]+\}$/.test(segment) ? null : segment));
  const routes = routesBySegmentCount.get(segments.length) ?? [];
  routes.push({ method: operation.method.toUpperCase(), segments, operation });
  routesBySegmentCount.set(segments.length, routes);
}
const literalCount = (route: Route) => route.segments.filter((segment) => segment !== null).length;
for (const routes of routesBySegmentCount.values()) routes.sort((a, b) => literalCount(b) - literalCount(a));

/** Every route, in the order `match` tries them among routes of one segment count. */
const routesInOrder: readonly Route[] = [...routesBySegmentCount.values()].flat();

/** A route as `exactRouteAlternatives` reports it: the upper-case method and the operation. */
export interface ExactRoute {
  readonly method: string;
  readonly operation: ApiOperation;
}

/**
 * A regular-expression source with one capturing alternative per route (all methods), in the
 * order `findOperation` prefers them. An alternative matches a path whose literal segments are
 * spelt exactly and whose parameter segments are non-empty runs of `parameterClass`, a character
 * class that must exclude `/` and `%`. For such a path no literal can match through percent
 * decoding and no segment is empty, so the first alternative that matches is the route
 * `findOperation` picks whenever the method is that route's; with another method, ask
 * `findOperation`.
 */
export function exactRouteAlternatives(parameterClass: string): {
  readonly source: string;
  readonly routes: readonly ExactRoute[];
} {
  const source = routesInOrder
    .map(
      (route) =>
        `(${route.segments.map((segment) => `/${segment === null ? `${parameterClass}+` : escapeRegExp(segment)}`).join('')})`,
    )
    .join('|');
  return { source, routes: routesInOrder.map(({ method, operation }) => ({ method, operation })) };
}

/** A literal segment matches itself, or a percent-encoded spelling a server may decode to it. */
function segmentIs(segment: string, literal: string): boolean {
  if (segment === literal) return true;
  if (!segment.includes('%')) return false;
  try {
    return decodeURIComponent(segment) === literal;
  } catch {
    return false;
  }
}

function match(method: string, segments: readonly string[]): ApiOperation | undefined {
  const routes = routesBySegmentCount.get(segments.length);
  if (routes === undefined) return undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    let matches = true;
    for (let i = 0; i < segments.length && matches; i++) {
      const literal = route.segments[i];
      matches = literal === null || literal === undefined || segmentIs(segments[i] as string, literal);
    }
    if (matches) return route.operation;
  }
  return undefined;
}

/**
 * The spec's operation of a request, from its upper-case HTTP method and the URL path after the
 * base URL (`/compute/gpu-vms/gpu-1`, no query). This reads what is actually sent, not the
 * template the caller named, so a request is recognised however it was built. A path the spec
 * does not have (e.g. the polling path of `waitForOperation`) gives `undefined`. Many servers
 * collapse `//` and ignore a trailing `/`, so a path that only matches without its empty
 * segments still counts as that operation: the rules then err on the side of guarding it.
 */
export function findOperation(method: string, path: string): ApiOperation | undefined {
  const segments = path.split('/');
  segments.shift();
  const found = match(method, segments);
  if (found !== undefined || !segments.includes('')) return found;
  return match(
    method,
    segments.filter((segment) => segment !== ''),
  );
}

/** Operation ids of the billable creates: the spec's `x-billable-create`, declared in one place. */
export const billableCreateIds: readonly string[] = Object.values(apiOperations)
  .filter((op) => op.billableCreate)
  .map((op) => op.operationId);
