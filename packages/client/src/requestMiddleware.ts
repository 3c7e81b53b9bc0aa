import type { ApiOperation } from '@cloud-api/types';
import type { Middleware } from 'openapi-fetch';
import { InvalidRequestError, TokenEnvironmentError, WorkspaceIdError } from './errors.js';
import { findOperation } from './operationIndex.js';
import { queryValues } from './queryValues.js';
import { canonicalWorkspaceId } from './workspaceId.js';

/**
 * A check or change applied to every request before it is sent; throwing refuses it.
 * `operation` is the spec's operation of the request (undefined for a path the spec does not
 * have, e.g. the polling path of `waitForOperation`).
 */
export type RequestRule = (request: Request, operation: ApiOperation | undefined) => void;

/** Runs before a billable create is sent; resolving lets it go, rejecting refuses it. */
export type BillableCreateGuard = (request: Request, operation: ApiOperation) => Promise<undefined>;

/**
 * Every rule as one openapi-fetch middleware. openapi-fetch awaits each middleware separately,
 * so one middleware that looks the operation up once and stays synchronous keeps the
 * per-request cost small (see bench/overhead.ts); only a billable create returns a promise,
 * the billing guard's, after every synchronous rule has passed.
 */
export function requestRules(
  rules: readonly RequestRule[],
  billableCreateGuard: BillableCreateGuard,
): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const operation = findOperation(request.method, schemaPath);
      for (const rule of rules) rule(request, operation);
      return operation?.billableCreate ? billableCreateGuard(request, operation) : undefined;
    },
  };
}

/**
 * Refuses a request whose URL left the bound base URL (e.g. a per-call `baseUrl` override
 * pointing at the other environment), before the token is attached.
 */
export function baseUrlGuard(baseUrl: string, environment: string): RequestRule {
  const prefix = `${baseUrl}/`;
  return (request) => {
    if (request.url.startsWith(prefix)) return;
    const { origin, pathname } = new URL(request.url);
    throw new TokenEnvironmentError(
      `Refused to send ${request.method} ${origin}${pathname}: this client's token is a ${environment} token ` +
        `and may only be sent under ${baseUrl}. Nothing was sent.`,
    );
  };
}

/**
 * Checks the `workspace_id` every request carries (the client's setting, filled in by the query
 * serializer, or the caller's per-call value) before anything is sent.
 */
export function workspaceIdCheck(): RequestRule {
  return (request) => {
    const values = queryValues(request.url, 'workspace_id');
    if (values.length !== 1) {
      throw new WorkspaceIdError(
        `The ${request.method} request carries ${values.length} workspace_id values; every request carries exactly one. Nothing was sent.`,
        values.join(','),
      );
    }
    canonicalWorkspaceId(values[0], 'workspace_id');
  };
}

/** Sends `Authorization: Bearer <token>` on every request, replacing any caller-set value. */
export function bearerAuth(token: string): RequestRule {
  const value = `Bearer ${token}`;
  return (request) => {
    request.headers.set('Authorization', value);
  };
}

/**
 * Adds a fresh `X-Idempotency-Key` (a UUID) to every operation the spec says requires one,
 * unless the caller gave one; a given key is kept, so the caller can replay a request safely.
 */
export function idempotencyKeys(newKey: () => string = () => crypto.randomUUID()): RequestRule {
  return (request, operation) => {
    if (!operation?.idempotencyKeyRequired) return;
    const given = request.headers.get('X-Idempotency-Key');
    if (given === null) {
      request.headers.set('X-Idempotency-Key', newKey());
    } else if (given.trim() === '') {
      throw new InvalidRequestError(
        'X-Idempotency-Key is empty; omit it to get a fresh UUID, or pass the key of the request you are replaying. Nothing was sent.',
      );
    }
  };
}
