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

/** Headers a gateway may set for its services to name a workspace (POLICY-1 sends them riding along). */
const WORKSPACE_HEADERS = ['x-workspace-id', 'x-tenant-id'];

/**
 * The one workspace a request named: its `workspace_id` when given once, with no other copy
 * (`workspace_id[]`, a tenant header) beside it; undefined otherwise.
 */
export function workspaceNamedOnce(exchange: Exchange): string | undefined {
  const { query, headers } = exchange.request;
  const copies = query.filter(([name]) => name === 'workspace_id' || name === 'workspace_id[]');
  const named = Object.keys(headers).some((name) => WORKSPACE_HEADERS.includes(name.toLowerCase()));
  return copies.length === 1 && copies[0]?.[0] === 'workspace_id' && !named ? copies[0][1] : undefined;
}
