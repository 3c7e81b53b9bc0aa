/**
 * The areas of the document the rules come from, by the prefix of their IDs, in the order a
 * reader meets them. A prefix without a name here (a rule family added later) shows as itself.
 */
const AREA_NAMES: Readonly<Record<string, string>> = {
  WS: 'Workspace scoping',
  AUTH: 'Authentication',
  ENV: 'Environments and base URL',
  SCOPE: 'Token scopes',
  POLICY: 'Workspace policies',
  ISO: 'Isolation between workspaces',
  ASYNC: 'Asynchronous operations',
  IDEM: 'Idempotency',
  BILL: 'Billing preflight',
  ERR: 'Errors',
  NEG: 'Refused request bodies',
  STATE: 'Resource state',
  RESP: 'Response shapes',
  PATCH: 'Partial updates',
  BACKUP: 'Backups',
  ENUM: 'Enumerations',
  CONC: 'Concurrent requests',
};

/** The prefix of a rule ID (`AUTH-2` → `AUTH`). */
export function areaOf(ruleId: string): string {
  return ruleId.replace(/-\d+$/, '');
}

export function areaName(prefix: string): string {
  return AREA_NAMES[prefix] ?? prefix;
}

/** Items grouped by the area of their rule, areas in order of first appearance. */
export function groupByArea<Item>(
  items: readonly Item[],
  ruleOf: (item: Item) => string,
): { readonly prefix: string; readonly name: string; readonly items: Item[] }[] {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const prefix = areaOf(ruleOf(item));
    const group = groups.get(prefix) ?? [];
    group.push(item);
    groups.set(prefix, group);
  }
  return [...groups].map(([prefix, grouped]) => ({ prefix, name: areaName(prefix), items: grouped }));
}
