import type { AcceptanceRecord } from '../sandboxStore.js';
import type { SandboxServices } from './operationContext.js';

const TWO_HOURS_MS = 7_200_000;

/** The operation id as the ASYNC faults make it: from the sandbox's one sequence when correct. */
function operationId(services: SandboxServices, workspaceId: string): string {
  const { behaviour, clock, store } = services;
  switch (behaviour.fault) {
    case 'operation-id-from-clock-seconds':
      // An id made from the time of the request, to the second: two creates in one second share it.
      return `op-${Math.floor(clock.now() / 1000).toString(16)}`;
    case 'operation-id-per-workspace-sequence':
    case 'operation-id-per-workspace-unique-column':
      // Operations numbered per workspace: every workspace has an op-00000001.
      return store.nextIdIn('op', workspaceId);
    default:
      return store.nextId('op');
  }
}

/** The 202 record of an asynchronous VM operation, with the ASYNC faults' switches. */
export function acceptanceRecord(
  services: SandboxServices,
  vmId: string,
  workspaceId: string,
): AcceptanceRecord {
  const { behaviour, clock } = services;
  const record: AcceptanceRecord = {
    operation_id: operationId(services, workspaceId),
    vm_id: vmId,
    status:
      behaviour.fault === 'acceptance-status-queued'
        ? 'queued'
        : // A new job runner rolled out to half the workspaces (by ID) passes on its own state.
          behaviour.fault === 'acceptance-status-by-rollout' && BigInt(workspaceId) % 2n === 1n
          ? 'pending'
          : 'accepted',
  };
  switch (behaviour.fault) {
    case 'acceptance-missing-submitted-at':
      break;
    case 'acceptance-submitted-at-not-utc':
      record.submitted_at = `${new Date(clock.now() + TWO_HOURS_MS).toISOString().slice(0, 19)}+02:00`;
      break;
    default:
      record.submitted_at = clock.timestamp();
  }
  return record;
}
