import { errorResult, jsonResult } from '../operationResult.js';
import { acceptanceRecord } from './acceptanceRecord.js';
import type { OperationHandler } from './operationContext.js';

/**
 * The gateway makes its own billing decision before accepting a billable create, whatever the
 * caller's preflight said; the refusal's status is not shown by the document (403 by default).
 */
export const createCloudVm: OperationHandler = (request, services) => {
  const { behaviour, billing, store } = services;
  if (
    !billing.allows(request.workspaceId, undefined) &&
    behaviour.fault !== 'gateway-ignores-billing-decision'
  ) {
    return errorResult(
      behaviour.billingRefusalStatus,
      `Billing eligibility denied: workspace ${request.workspaceId} may not create billable resources, so the create was refused and no operation was accepted.`,
    );
  }
  const vmId = store.nextId('vm');
  store.cloudVms.set(vmId, {
    vmId,
    workspaceId: request.workspaceId,
    request: request.body,
    state: 'creating',
  });
  const record = acceptanceRecord(services, vmId);
  store.operations.set(record.operation_id, {
    record,
    workspaceId: request.workspaceId,
    kind: 'create-cloud-vm',
  });
  return jsonResult(behaviour.fault === 'create-answers-201' ? 201 : 202, record);
};
