import type { AcceptanceRecord } from '../sandboxStore.js';
import type { SandboxServices } from './operationContext.js';

const TWO_HOURS_MS = 7_200_000;

/** The 202 record of an asynchronous VM operation, with the ASYNC faults' switches. */
export function acceptanceRecord(services: SandboxServices, vmId: string): AcceptanceRecord {
  const { behaviour, clock, store } = services;
  const record: AcceptanceRecord = {
    operation_id:
      behaviour.fault === 'operation-id-from-clock-seconds'
        ? // An id made from the time of the request, to the second: two creates in one second share it.
          `op-${Math.floor(clock.now() / 1000).toString(16)}`
        : store.nextId('op'),
    vm_id: vmId,
    status: behaviour.fault === 'acceptance-status-queued' ? 'queued' : 'accepted',
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
