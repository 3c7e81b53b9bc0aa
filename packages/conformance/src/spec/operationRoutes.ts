import type { OperationEntry } from '@cloud-api/spec';

export interface OperationRoutes {
  /** The spec operation a request went to, by method and path; undefined for paths the spec does not have. */
  find(method: string, path: string): OperationEntry | undefined;
}

function routeMatcher(op: OperationEntry): RegExp {
  const pattern = op.path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`);
}

/** Maps the suite's requests back to the spec's operations (for coverage and the schema audit). */
export function createOperationRoutes(operations: readonly OperationEntry[]): OperationRoutes {
  const routes = operations.map((op) => ({ op, method: op.method.toUpperCase(), matcher: routeMatcher(op) }));
  // Every exchange is looked up twice (coverage, schema audit) and most paths repeat: remember a
  // bounded number of answers.
  const known = new Map<string, OperationEntry | undefined>();
  return {
    find(method, path) {
      const key = `${method} ${path}`;
      if (known.has(key)) return known.get(key);
      const upper = method.toUpperCase();
      const found = routes.find((r) => r.method === upper && r.matcher.test(path))?.op;
      if (known.size >= 2048) known.clear();
      known.set(key, found);
      return found;
    },
  };
}
