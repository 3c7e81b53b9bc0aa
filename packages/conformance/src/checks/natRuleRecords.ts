import type { ExchangeRecorder } from '../spec/operationRoutes.js';

/**
 * The latest record each NAT rule was answered with (a 200 to an update, by the request's path):
 * where a target refuses an empty update, a read restates a field of it.
 */
export interface NatRuleRecords extends ExchangeRecorder {
  latest(path: string): Readonly<Record<string, unknown>> | undefined;
}

export function createNatRuleRecords(): NatRuleRecords {
  const latest = new Map<string, Readonly<Record<string, unknown>>>();
  return {
    record(exchange, op) {
      if (op.operationId !== 'updateNatPortForwardingRule' || exchange.response.status !== 200) return;
      let record: unknown;
      try {
        record = JSON.parse(exchange.response.bodyText);
      } catch {
        return;
      }
      if (record && typeof record === 'object' && !Array.isArray(record))
        latest.set(exchange.request.path, record as Record<string, unknown>);
    },
    latest: (path) => latest.get(path),
  };
}
