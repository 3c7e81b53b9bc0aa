import type { OperationEntry } from '@cloud-api/spec';
import type { Exchange } from '../transport/exchange.js';

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

/** Reads what the suite sent and saw, once the exchange's spec operation is known. */
export interface ExchangeRecorder {
  record(exchange: Exchange, op: OperationEntry): void;
}

/**
 * Looks each exchange's operation up once and hands it to every recorder (coverage, the schema
 * audit); an exchange with a path the spec does not have is left out.
 */
export function routeExchanges(
  routes: OperationRoutes,
  recorders: readonly ExchangeRecorder[],
): (exchange: Exchange) => void {
  return (exchange) => {
    const op = routes.find(exchange.request.method, exchange.request.path);
    if (!op) return;
    for (const recorder of recorders) recorder.record(exchange, op);
  };
}
