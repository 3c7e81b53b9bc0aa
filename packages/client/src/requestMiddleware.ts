import { InvalidRequestError, WorkspaceIdError } from './errors.js';
import { findOperation } from './operationIndex.js';
import { queryStringValues } from './queryValues.js';
import { type RuleTarget, requestTargetReader, usualTargetReader } from './requestTarget.js';
import { CLIENT_NAME, CLIENT_VERSION } from './version.js';
import { canonicalWorkspaceId } from './workspaceId.js';

/** What the rules read and change of a request about to be sent. */
export interface RuleRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  clone(): { text(): Promise<string> };
}

/**
 * Applies every synchronous rule to a request, returning where it goes (workspace, operation);
 * throwing refuses it. The billing guard of a billable create runs after, in the transport.
 */
export type RequestRules = (request: RuleRequest) => RuleTarget;

/**
 * Every rule, applied by the client's transport (the `fetch` openapi-fetch calls) rather than by
 * an openapi-fetch middleware. So the rules check the request exactly as it is sent, after every
 * caller middleware (which can no longer undo them), and openapi-fetch's per-request middleware
 * machinery is never entered. The operation is found from the method and the URL path actually
 * sent, not from the template the caller named.
 *
 * In order: the URL must stay under the bound base URL (before the token is attached); exactly
 * one canonical `workspace_id`; `Authorization: Bearer <token>` replacing any other; an
 * `X-Idempotency-Key` where the spec requires one; a `User-Agent` naming this package and
 * version (after the caller's own, if any). The transport then runs the billing guard for a
 * billable create.
 */
export function requestRules(settings: {
  readonly baseUrl: string;
  readonly environment: string;
  readonly token: string;
  readonly newIdempotencyKey?: () => string;
}): RequestRules {
  const readUsualTarget = usualTargetReader(settings.baseUrl);
  const readTarget = requestTargetReader(settings.baseUrl, settings.environment);
  const authorization = `Bearer ${settings.token}`;
  const newKey = settings.newIdempotencyKey ?? (() => crypto.randomUUID());
  const userAgent = `${CLIENT_NAME}/${CLIENT_VERSION} node/${typeof process === 'object' ? process.versions?.node : 'unknown'}`;

  const readAnyTarget = (method: string, url: string): RuleTarget => {
    // openapi-fetch leaves `{name}` in the URL when a call gives no path parameters at all (its
    // path serializer, which refuses a missing one, is then never called); the usual reader
    // never matches a brace, so only this slower path needs the check.
    const unfilled = /\{([^{}]*)\}/.exec(url.split('?', 1)[0] as string);
    if (unfilled !== null) {
      throw new InvalidRequestError(
        `Path parameter ${unfilled[1]} is missing from the ${method} request; every path id is required. Nothing was sent.`,
      );
    }
    const { path, query } = readTarget(method, url);
    return { path, workspaceId: singleWorkspaceId(method, query), operation: findOperation(method, path) };
  };

  return (request) => {
    const method = request.method.toUpperCase();
    const target = readUsualTarget(method, request.url) ?? readAnyTarget(method, request.url);
    const { headers } = request;
    headers.set('Authorization', authorization);
    const callerAgent = headers.get('User-Agent');
    headers.set('User-Agent', callerAgent === null ? userAgent : `${callerAgent} ${userAgent}`);
    if (target.operation?.idempotencyKeyRequired) ensureIdempotencyKey(headers, newKey);
    return target;
  };
}

/**
 * The `workspace_id` every request carries (the client's setting, filled in by the query
 * serializer, or the caller's per-call value): exactly one, canonical, or the request is refused.
 */
function singleWorkspaceId(method: string, query: string): string {
  const values = queryStringValues(query, 'workspace_id');
  if (values.length !== 1) {
    throw new WorkspaceIdError(
      `The ${method} request carries ${values.length} workspace_id values; every request carries exactly one. Nothing was sent.`,
      values.join(','),
    );
  }
  return canonicalWorkspaceId(values[0], 'workspace_id');
}

/**
 * Adds a fresh `X-Idempotency-Key` (a UUID) unless the caller gave one; a given key is kept, so
 * the caller can replay a request safely.
 */
function ensureIdempotencyKey(headers: Headers, newKey: () => string): void {
  const given = headers.get('X-Idempotency-Key');
  if (given === null) {
    headers.set('X-Idempotency-Key', newKey());
  } else if (given.trim() === '') {
    throw new InvalidRequestError(
      'X-Idempotency-Key is empty; omit it to get a fresh UUID, or pass the key of the request you are replaying. Nothing was sent.',
    );
  }
}
