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
  return {
    find(method, path) {
      const upper = method.toUpperCase();
      return routes.find((r) => r.method === upper && r.matcher.test(path))?.op;
    },
  };
}
