import { errorResult, jsonResult, type OperationResult } from '../operationResult.js';
import { storeRoundTrip } from '../storeRoundTrip.js';
import { acceptanceRecord } from './acceptanceRecord.js';
import {
  NOT_FOUND_DETAIL,
  type OperationHandler,
  type OperationRequest,
  type SandboxServices,
} from './operationContext.js';
import { inRequestWorkspace, notInWorkspace, ownedElsewhereConflict } from './workspaceFilter.js';

export const deleteGpuVm: OperationHandler = (request, services) => {
  const { store, behaviour } = services;
  const vmId = request.pathParameters.vm_id ?? '';
  const vm = store.gpuVms.get(vmId);
  const ownedElsewhere = ownedElsewhereConflict('GPU VM', vmId, vm?.workspaceId, request, services);
  if (ownedElsewhere) return ownedElsewhere;
  // The fault marks the VM deleting first and compares its workspace after.
  if (
    behaviour.fault === 'delete-started-before-workspace-check' &&
    vm &&
    vm.state !== 'deleting' &&
    vm.workspaceId !== request.workspaceId
  ) {
    vm.state = 'deleting';
    vm.deletingSince = Date.now();
    return notInWorkspace(
      services,
      request,
      vm.workspaceId,
      NOT_FOUND_DETAIL('GPU VM', vmId, request.workspaceId),
    );
  }
  if (!vm || !inRequestWorkspace(vm.workspaceId, request, services, 'gpu-vm-lookup-ignores-workspace')) {
    return notInWorkspace(
      services,
      request,
      vm?.workspaceId,
      NOT_FOUND_DETAIL('GPU VM', vmId, request.workspaceId),
    );
  }
  if (vm.state === 'deleting') {
    // The fault's lock stays held while the accepted delete's first step runs (a second).
    if (behaviour.fault === 'delete-lock-held-423' && Date.now() - (vm.deletingSince ?? 0) < 1_000)
      return errorResult(423, `GPU VM ${vmId} is locked by a running operation.`);
    return errorResult(409, `GPU VM ${vmId} is already being deleted.`);
  }
  // The fault reads the state, then the store round trip, then writes it: a delete arriving meanwhile passes the check too.
  if (behaviour.fault === 'delete-state-check-then-act')
    return storeRoundTrip().then(() => {
      vm.state = 'deleting';
      return accepted(vmId, request, services);
    });
  vm.state = 'deleting';
  return accepted(vmId, request, services);
};

/** The delete accepted: an operation record stored and answered 202. */
function accepted(vmId: string, request: OperationRequest, services: SandboxServices): OperationResult {
  const { store, behaviour } = services;
  const vm = store.gpuVms.get(vmId);
  if (vm) vm.deletingSince = Date.now();
  // VM states are not shown: under this variant an accepted delete removes the VM at once.
  if (behaviour.variant === 'deleted-vm-gone-404') store.gpuVms.delete(vmId);
  const record = acceptanceRecord(
    services,
    behaviour.fault === 'delete-acceptance-other-vm-id' ? `${vmId}-x` : vmId,
    request.workspaceId,
  );
  store.operations.set(record.operation_id, {
    record,
    workspaceId: request.workspaceId,
    kind: 'delete-gpu-vm',
  });
  return jsonResult(202, record);
}
