import { describe, expect, it } from 'vitest';
import { createServedRestoreLog } from '../src/checks/servedRestoreLog.js';
import type { Exchange } from '../src/transport/exchange.js';

const restoreRead = { operationId: 'getCloudVmSnapshotRestore' } as Parameters<
  ReturnType<typeof createServedRestoreLog>['record']
>[1];

function read(path: string, workspace: string, status: number): Exchange {
  return {
    request: { method: 'GET', path, query: [['workspace_id', workspace]], headers: {} },
    url: `http://t.test/v1${path}?workspace_id=${workspace}`,
    response: { status, headers: {}, bodyText: '', json: undefined, isJson: false, durationMs: 1 },
  };
}

describe('servedRestoreLog', () => {
  it('notes a restore served in a workspace by the id and workspace spelled exactly, and nothing else', () => {
    const log = createServedRestoreLog();
    log.record(read('/compute/cloud-vm-snapshots/restores/rsr%3A0a91', '5001', 200), restoreRead);
    log.record(read('/compute/cloud-vm-snapshots/restores/rst-2', '5001', 404), restoreRead);
    log.record(read('/compute/cloud-vm-snapshots/restores/%20rst-3', '5001', 200), restoreRead);
    expect(log.servedEarlier('rsr:0a91', '5001')).toBe(true);
    expect(log.servedEarlier('rsr:0a91', '5002')).toBe(false);
    expect(log.servedEarlier('rst-2', '5001')).toBe(false);
    expect(log.servedEarlier('rst-3', '5001')).toBe(false);
  });

  it('notes nothing of a read that named another workspace beside its workspace_id', () => {
    const log = createServedRestoreLog();
    const path = '/compute/cloud-vm-snapshots/restores/rst-1';
    const plain = read(path, '5002', 200);
    const alongside = (query: [string, string][], headers: Record<string, string> = {}): Exchange => ({
      ...plain,
      request: { ...plain.request, query, headers },
    });
    log.record(
      alongside([
        ['workspace_id', '5002'],
        ['workspace_id', '5001'],
      ]),
      restoreRead,
    );
    log.record(
      alongside([
        ['workspace_id', '5002'],
        ['workspace_id[]', '5001'],
      ]),
      restoreRead,
    );
    log.record(alongside([['workspace_id', '5002']], { 'X-Workspace-Id': '5001' }), restoreRead);
    expect(log.servedEarlier('rst-1', '5002')).toBe(false);
    log.record(plain, restoreRead);
    expect(log.servedEarlier('rst-1', '5002')).toBe(true);
  });
});
