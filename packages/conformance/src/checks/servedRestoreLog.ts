import type { ExchangeRecorder } from '../spec/operationRoutes.js';
import { workspaceNamedOnce } from './exchangeReading.js';

/** Which restores the run saw served (2xx), in which workspace: ISO-1 asks whether one was lost. */
export interface ServedRestoreLog extends ExchangeRecorder {
  servedEarlier(restoreId: string, workspaceId: string): boolean;
}

/**
 * Notes every restore read answered 2xx, by the id and workspace_id the request spelled exactly
 * (a read of another form of either, or with another workspace riding along, is no statement
 * about this pair). The document has no
 * operation that removes a restore, so one served in its workspace stays servable there.
 */
export function createServedRestoreLog(): ServedRestoreLog {
  const served = new Set<string>();
  const key = (restoreId: string, workspaceId: string) => `${workspaceId}\n${restoreId}`;
  return {
    record(exchange, op) {
      if (op.operationId !== 'getCloudVmSnapshotRestore') return;
      if (exchange.response.status < 200 || exchange.response.status > 299) return;
      const workspaceId = workspaceNamedOnce(exchange);
      const encoded = exchange.request.path.split('/').at(-1);
      if (workspaceId === undefined || encoded === undefined) return;
      let restoreId: string;
      try {
        restoreId = decodeURIComponent(encoded);
      } catch {
        return;
      }
      served.add(key(restoreId, workspaceId));
    },
    servedEarlier: (restoreId, workspaceId) => served.has(key(restoreId, workspaceId)),
  };
}
