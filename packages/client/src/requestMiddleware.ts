import type { Middleware } from 'openapi-fetch';
import { InvalidRequestError, TokenEnvironmentError, WorkspaceIdError } from './errors.js';
import { findOperation } from './operationIndex.js';
import { canonicalWorkspaceId } from './workspaceId.js';

/** A check or change applied to every request before it is sent; throwing refuses it. */
export type RequestRule = (request: Request, schemaPath: string) => void;

/**
 * Runs the rules in order as one openapi-fetch middleware: openapi-fetch awaits each middleware
 * separately, and one synchronous step keeps the per-request overhead small.
 */
export function requestRules(rules: readonly RequestRule[]): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      for (const rule of rules) rule(request, schemaPath);
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
    const query = request.url.indexOf('?');
    const values = query < 0 ? [] : new URLSearchParams(request.url.slice(query + 1)).getAll('workspace_id');
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
  return (request, schemaPath) => {
    if (!findOperation(request.method, schemaPath)?.idempotencyKeyRequired) return;
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
