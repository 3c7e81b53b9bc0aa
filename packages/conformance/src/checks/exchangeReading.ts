import type { Exchange } from '../transport/exchange.js';

/**
 * JSON with object keys sorted, so two serialisations of one value compare equal. The sandbox has
 * its own on purpose: the suite shares no code with an implementation it judges.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** What a list holds, whatever the order of its items (the document shows none) and of their keys. */
export function listContent(list: readonly unknown[]): string {
  return `[${list.map(canonicalJson).sort().join(',')}]`;
}

/** The `workspace_id` a request was sent with, as sent (the first, if it was given twice). */
export function workspaceIdSent(exchange: Exchange): string | undefined {
  return exchange.request.query.find(([name]) => name === 'workspace_id')?.[1];
}
