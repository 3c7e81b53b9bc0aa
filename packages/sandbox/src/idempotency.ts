import { errorResult, jsonResult, type OperationResult } from './operationResult.js';
import type { SandboxStore } from './sandboxStore.js';

/** Identifies "the same request" for a replay: method, path, workspace and the body's content. */
export function requestFingerprint(
  method: string,
  pathname: string,
  workspaceId: string,
  body: unknown,
): string {
  return `${method} ${pathname} ${workspaceId} ${body === undefined ? '' : canonicalJson(body)}`;
}

/** JSON with object keys sorted, so a retry that reorders keys is still the same request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * Replays the stored answer for a key used before: the same request gets the same record (no
 * second operation); another request with the same key is refused with 422.
 */
export function replayFor(
  store: SandboxStore,
  key: string,
  fingerprint: string,
): OperationResult | undefined {
  const stored = store.idempotentAnswers.get(key);
  if (!stored) return undefined;
  if (stored.fingerprint === fingerprint) return jsonResult(stored.status, stored.body);
  return errorResult(
    422,
    'This X-Idempotency-Key was already used for a different request; use a new key for a new request and reuse a key only to retry the same request.',
  );
}

export function rememberAnswer(
  store: SandboxStore,
  key: string,
  fingerprint: string,
  result: OperationResult,
): void {
  if (result.kind === 'json' && result.status >= 200 && result.status < 300) {
    store.idempotentAnswers.set(key, {
      fingerprint,
      status: result.status,
      body: result.body,
      storedAt: Date.now(),
    });
  }
}
